import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ModelFolderError, readModelFamily, readModelFolder } from '../../../shared/scoring/model-folder.js';
import { CROSS_ENCODER_FAMILIES, LLM_RERANKER_FIXTURE, familyFolder } from './family-fixtures.js';

const scratch = await mkdtemp(path.join(tmpdir(), 'model-family-'));
afterAll(() => rm(scratch, { recursive: true, force: true }));

describe('readModelFamily: one read of config.json picks the family', () => {
  it('tells every committed fixture family apart', async () => {
    for (const name of CROSS_ENCODER_FAMILIES) expect(await readModelFamily(familyFolder(name))).toBe('cross-encoder');
    expect(await readModelFamily(familyFolder(LLM_RERANKER_FIXTURE))).toBe('causal-lm');
    expect(await readModelFamily(familyFolder('use-lite'))).toBe('bi-encoder');
    expect(await readModelFamily(familyFolder('tinybert-l2-fixture'))).toBe('cross-encoder');
  });

  it('refuses a folder without config.json and an unknown rerank_kind, naming the problem', async () => {
    await expect(readModelFamily(path.join(scratch, 'missing'))).rejects.toThrow(ModelFolderError);
    const odd = path.join(scratch, 'odd');
    await cp(familyFolder('tinybert-l2-fixture'), odd, { recursive: true, filter: (source) => !source.endsWith('.onnx') });
    const config = JSON.parse(await readFile(path.join(odd, 'config.json'), 'utf8')) as Record<string, unknown>;
    await writeFile(path.join(odd, 'config.json'), JSON.stringify({ ...config, rerank_kind: 'late-interaction' }));
    await expect(readModelFamily(odd)).rejects.toThrow(/unknown rerank_kind "late-interaction"/);
  });

  it("reads the encoder's hidden size with the rest of config.json (the batch cost estimate weighs attention with it)", async () => {
    const folder = await readModelFolder(familyFolder('tinybert-l2-fixture'));
    const raw = JSON.parse(await readFile(path.join(folder.folder, 'config.json'), 'utf8')) as { hidden_size: number };
    expect(folder.config.hiddenSize).toBe(raw.hidden_size);
  });
});
