import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadOnnxCrossEncoder } from '../../../shared/scoring/onnx-cross-encoder.js';
import { ModelFolderError, readModelFolder } from '../../../shared/scoring/model-folder.js';
import { FIXTURE_MODEL_DIR } from './fixture-model.js';

describe('model folder', () => {
  const temps: string[] = [];
  const tempDir = async (): Promise<string> => {
    const dir = await mkdtemp(path.join(tmpdir(), 'model-folder-'));
    temps.push(dir);
    return dir;
  };
  afterEach(async () => {
    await Promise.all(temps.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('reads the fixture folder in Hugging Face layout', async () => {
    // Act
    const folder = await readModelFolder(FIXTURE_MODEL_DIR);

    // Assert
    expect(folder.onnxPath).toBe(path.join(FIXTURE_MODEL_DIR, 'onnx', 'model_quantized.onnx'));
    expect(folder.config).toMatchObject({ modelType: 'bert', numLabels: 1, maxPositionEmbeddings: 512, padTokenId: 0 });
    expect(folder.maxLength).toBe(512);
    expect(folder.tokenizerConfig.model_max_length).toBe(512);
  });

  it('gives a clear error for a missing folder', async () => {
    // Arrange
    const missing = path.join(tmpdir(), 'no-such-model-folder-42');

    // Act / Assert
    await expect(readModelFolder(missing)).rejects.toThrow(ModelFolderError);
    await expect(loadOnnxCrossEncoder({ id: 'x', folder: missing })).rejects.toThrow(/no-such-model-folder-42 does not exist/);
  });

  it('names the ONNX files it looked for when there is none', async () => {
    // Arrange
    const dir = await tempDir();
    await writeFile(path.join(dir, 'config.json'), '{"num_labels":1}');

    // Act / Assert
    await expect(readModelFolder(dir)).rejects.toThrow(/no ONNX model found \(looked for onnx\/model.onnx, model.onnx/);
    await expect(readModelFolder(dir)).rejects.toMatchObject({ name: 'ModelFolderError', code: 'no_onnx_file' });
  });

  it('names a missing tokenizer.json', async () => {
    // Arrange
    const dir = await tempDir();
    await cp(path.join(FIXTURE_MODEL_DIR, 'onnx'), path.join(dir, 'onnx'), { recursive: true });
    await cp(path.join(FIXTURE_MODEL_DIR, 'config.json'), path.join(dir, 'config.json'));

    // Act / Assert
    await expect(readModelFolder(dir)).rejects.toThrow(/cannot read tokenizer.json/);
  });

  it('names a malformed config.json', async () => {
    // Arrange
    const dir = await tempDir();
    await cp(FIXTURE_MODEL_DIR, dir, { recursive: true });
    await writeFile(path.join(dir, 'config.json'), '{not json');

    // Act / Assert
    await expect(readModelFolder(dir)).rejects.toThrow(/config.json is not valid JSON/);
  });

  it('prefers a root model.onnx when onnx/ has only the quantized file, unless told otherwise', async () => {
    // Arrange
    const dir = await tempDir();
    await cp(FIXTURE_MODEL_DIR, dir, { recursive: true });
    await cp(path.join(dir, 'onnx', 'model_quantized.onnx'), path.join(dir, 'model.onnx'));

    // Act
    const byDefault = await readModelFolder(dir);
    const explicit = await readModelFolder(dir, { modelFile: 'onnx/model_quantized.onnx' });

    // Assert
    expect(byDefault.onnxPath).toBe(path.join(dir, 'model.onnx'));
    expect(explicit.onnxPath).toBe(path.join(dir, 'onnx', 'model_quantized.onnx'));
  });

  it('caps the pair length by tokenizer_config model_max_length', async () => {
    // Arrange
    const dir = await tempDir();
    await cp(FIXTURE_MODEL_DIR, dir, { recursive: true });
    await writeFile(path.join(dir, 'tokenizer_config.json'), JSON.stringify({ model_max_length: 128 }));

    // Act
    const scorer = await loadOnnxCrossEncoder({ id: 'short', folder: dir, threads: 1 });
    const result = await scorer.score('query', ['word '.repeat(1000)]);
    await scorer.close();

    // Assert
    expect(scorer.maxLength).toBe(128);
    expect(result.tokens).toBe(128);
  });

  it('keeps a RoBERTa-style pair inside the positions the graph can index, whatever tokenizer_config claims', async () => {
    // Arrange: XLM-R numbers positions from pad_token_id + 1, so a 514-position table holds 512 tokens; this
    // tokenizer_config claims 8,192 (as one copied from a long-context sibling does).
    const dir = await tempDir();
    const xlmr = path.join(FIXTURE_MODEL_DIR, '..', 'xlmr-fixture');
    await cp(xlmr, dir, { recursive: true });
    const config = JSON.parse(await readFile(path.join(xlmr, 'config.json'), 'utf8')) as Record<string, unknown>;
    await writeFile(path.join(dir, 'config.json'), JSON.stringify({ ...config, max_position_embeddings: 514, pad_token_id: 1 }));
    await writeFile(path.join(dir, 'tokenizer_config.json'), JSON.stringify({ model_max_length: 8192 }));

    // Act
    const folder = await readModelFolder(dir);
    const shipped = await readModelFolder(xlmr);

    // Assert: 514 - (1 + 1); the shipped fixture (8,194 positions, model_max_length 8,192) keeps its 8,192.
    expect(folder.maxLength).toBe(512);
    expect(shipped.maxLength).toBe(8192);
  });

  it('leaves a BERT position table whole (it has no offset)', async () => {
    const dir = await tempDir();
    await cp(FIXTURE_MODEL_DIR, dir, { recursive: true });
    await writeFile(path.join(dir, 'tokenizer_config.json'), JSON.stringify({ model_max_length: 100000 }));
    expect((await readModelFolder(dir)).maxLength).toBe(512);
  });
});
