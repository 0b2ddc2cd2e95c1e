import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { presentNamesFor, runWithCache, sharedHeadLength, type CacheGraph } from '../../../shared/scoring/causal-lm/kv-cache-runs.js';
import { familyFolder, LLM_RERANKER_KV_FIXTURE } from './family-fixtures.js';

const PAST = ['past_key_values.0.key', 'past_key_values.0.value', 'past_key_values.1.key', 'past_key_values.1.value'];
const PRESENT = ['present.0.key', 'present.0.value', 'present.1.key', 'present.1.value'];

describe('sharedHeadLength', () => {
  it('counts the tokens every row starts with, leaving each row its last token', () => {
    expect(
      sharedHeadLength([
        [1, 2, 3, 4],
        [1, 2, 3, 5, 6],
      ]),
    ).toBe(3);
    expect(
      sharedHeadLength([
        [1, 2, 3],
        [1, 2, 3, 4, 5],
      ]),
    ).toBe(2);
    expect(
      sharedHeadLength([
        [1, 2],
        [3, 2],
      ]),
    ).toBe(0);
  });

  it('shares nothing for a single row (nothing to reuse)', () => {
    expect(sharedHeadLength([[1, 2, 3]])).toBe(0);
  });
});

describe('presentNamesFor', () => {
  it('maps each past input to its present output, or gives up when one is missing', () => {
    expect(presentNamesFor(PAST, ['logits', ...PRESENT])).toEqual(PRESENT);
    expect(presentNamesFor(PAST, ['logits', ...PRESENT.slice(1)])).toBeUndefined();
    expect(presentNamesFor([], ['logits'])).toBeUndefined();
  });
});

describe('runWithCache on the Hub-shaped KV-cache fixture graph', () => {
  const graph: CacheGraph = {
    tokenInputs: ['input_ids', 'attention_mask', 'position_ids'],
    pastNames: PAST,
    presentNames: PRESENT,
    pastType: 'float32',
    pastHeads: 1,
    pastHeadDim: 16,
    logitsName: 'logits',
  };
  const rows = [
    [11, 12, 13, 14, 15, 16, 17, 18, 19, 20],
    [11, 12, 13, 14, 15, 16, 21, 22],
    [11, 12, 13, 14, 15, 16, 23, 24, 25, 26, 27, 28, 29],
  ];
  // Any one vocabulary entry at each row's last token identifies the position read.
  const read = (logits: ort.Tensor, row: number, column: number) =>
    (logits.data as Float32Array)[(row * Number(logits.dims[1]) + column) * Number(logits.dims[2]) + 7]!;
  let session: ort.InferenceSession;

  beforeAll(async () => {
    session = await ort.InferenceSession.create(path.join(familyFolder(LLM_RERANKER_KV_FIXTURE), 'onnx/model.onnx'), {
      intraOpNumThreads: 1,
    });
  });
  afterAll(async () => {
    await session.release();
  });

  it('runs the shared head once for one row, then the rest in chunks of at most maxRunTokens, with the logits of one run per row', async () => {
    // Arrange
    const runs: { ids: readonly number[]; mask: readonly number[]; past: number }[] = [];
    const recording = {
      run: (feeds: Record<string, ort.Tensor>, fetches: readonly string[]) => {
        runs.push({ ids: feeds.input_ids!.dims, mask: feeds.attention_mask!.dims, past: feeds[PAST[0]!]!.dims[2]! });
        return session.run(feeds, fetches);
      },
    } as unknown as ort.InferenceSession;
    const alone = await Promise.all(rows.map(async (row) => (await runWithCache(session, graph, [row], 0, 1000, read))[0]!));

    // Act
    const chunked = await runWithCache(recording, graph, rows, 0, 4, read);

    // Assert: head [0, 6) for one row in chunks of 4, then 3 rows x 1 column per run, each on the cache before it.
    expect(runs.slice(0, 2)).toEqual([
      { ids: [1, 4], mask: [1, 4], past: 0 },
      { ids: [1, 2], mask: [1, 6], past: 4 },
    ]);
    expect(runs.slice(2).map((r) => r.ids)).toEqual(Array.from({ length: 7 }, () => [3, 1]));
    expect(runs.slice(2).map((r) => r.past)).toEqual([6, 7, 8, 9, 10, 11, 12]);
    for (let r = 0; r < rows.length; r++) expect(Math.abs(chunked[r]! - alone[r]!)).toBeLessThan(1e-5);
  });
});
