import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EmbeddingCache, embeddingCacheFile, modelDigest } from '../../../../scripts/eval/embedding-cache.js';

const USE_LITE = path.resolve(import.meta.dirname, '../../../../models/use-lite');
const scratch = mkdtempSync(path.join(tmpdir(), 'eval-embedding-cache-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A bi-encoder folder with USE-lite's config and vocabulary and the given bytes as its ONNX file. */
function folderWithGraph(name: string, graph: string): string {
  const folder = path.join(scratch, name);
  mkdirSync(path.join(folder, 'onnx'), { recursive: true });
  for (const file of ['config.json', 'tokenizer_config.json', 'vocab.json'])
    copyFileSync(path.join(USE_LITE, file), path.join(folder, file));
  writeFileSync(path.join(folder, 'onnx/model.onnx'), graph);
  return folder;
}

/** A fake embedder (a unit test may fake the port): the vector says which model made it. */
const embedder = (value: number) => ({ embed: async (texts: readonly string[]) => texts.map(() => new Float32Array([value, 0])) });

describe('the evaluation embedding cache is keyed by the model', () => {
  it('gives the same digest for the same files and another one when the weights change', async () => {
    const a = await modelDigest(folderWithGraph('a', 'graph one'));
    const sameFiles = await modelDigest(folderWithGraph('a-copy', 'graph one'));
    const retrained = await modelDigest(folderWithGraph('b', 'graph two'));

    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(sameFiles).toBe(a);
    expect(retrained).not.toBe(a);
  });

  it('never serves a vector cached for another model, in memory or from the file', async () => {
    // Arrange: model A's vectors saved to its own file
    const dir = path.join(scratch, 'cache');
    const old = await EmbeddingCache.forModel(dir, folderWithGraph('old', 'old weights'));
    await old.fill(embedder(1), ['python http library']);
    old.save();

    // Act: a retrained model with the same texts
    const retrained = await EmbeddingCache.forModel(dir, folderWithGraph('new', 'new weights'));
    const before = retrained.get('python http library');
    await retrained.fill(embedder(2), ['python http library']);

    // Assert
    expect(before).toBeUndefined();
    expect(retrained.get('python http library')?.[0]).toBe(2);
    expect((await EmbeddingCache.forModel(dir, folderWithGraph('old-again', 'old weights'))).get('python http library')?.[0]).toBe(1);
  });

  it('ignores a file whose recorded model is not its own', () => {
    const digestA = 'a'.repeat(64);
    const file = embeddingCacheFile(path.join(scratch, 'mixed'), digestA);
    const a = new EmbeddingCache(file, digestA);
    a.set('text', new Float32Array([1]));
    a.save();

    expect(new EmbeddingCache(file, digestA).size).toBe(1);
    expect(new EmbeddingCache(file, 'b'.repeat(64)).size).toBe(0);
  });
});
