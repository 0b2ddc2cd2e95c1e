import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCausalLmReranker, type CausalLmReranker } from '../../../shared/scoring/causal-lm/index.js';
import {
  familyFolder,
  LLM_RERANKER_KV_FIXTURE,
  loadFamilyGolden,
  sigmoid,
  type LlmKvGolden,
  type LlmKvGoldenCase,
} from './family-fixtures.js';
import { FP16_LOGIT_TOLERANCE, FP16_SCORE_TOLERANCE, SAME_GRAPH_FP16_TOLERANCE } from './llm-fp16-tolerances.js';

// The Hub's Qwen3-Reranker ONNX exports (optimum / transformers.js) take a KV cache and position_ids, and their
// fp16 variant has float16 past and logits: the scorer must feed an empty cache of the right shape and read
// float16 logits on every Node (Uint16Array words on Node 20, Float16Array numbers on Node 24).
const TOLERANCE = 1e-4;
const golden = loadFamilyGolden<LlmKvGolden>(LLM_RERANKER_KV_FIXTURE);
const folder = familyFolder(LLM_RERANKER_KV_FIXTURE);
const options = (c: LlmKvGoldenCase) => (c.instruction === null ? undefined : { instruction: c.instruction });
const shortCases = golden.cases.filter((c) => c.instruction === null && c.query === golden.cases[0]!.query && c.tokens < 2000);

describe(`${LLM_RERANKER_KV_FIXTURE}: the fp32 KV-cache graph vs transformers`, () => {
  let scorer: CausalLmReranker;

  beforeAll(async () => {
    scorer = await loadCausalLmReranker({ id: 'qwen3-kv', folder, threads: 1 });
  });
  afterAll(async () => {
    await scorer.close();
  });

  it('loads the graph with the Hub exports inputs: position_ids and an empty past per layer', () => {
    expect(scorer.inputNames).toEqual([
      'input_ids',
      'attention_mask',
      'position_ids',
      'past_key_values.0.key',
      'past_key_values.0.value',
      'past_key_values.1.key',
      'past_key_values.1.value',
    ]);
  });

  it.each(golden.cases.map((c) => [c.name, c] as const))('scores %s as p(yes) like transformers', async (_n, c) => {
    // Act
    const result = await scorer.score(c.query, [c.document], options(c));

    // Assert
    expect(result.tokens).toBe(c.tokens);
    expect(Math.abs(result.scores[0]! - c.logit)).toBeLessThan(TOLERANCE);
    expect(Math.abs(sigmoid(result.scores[0]!) - c.score)).toBeLessThan(TOLERANCE);
  });

  it('scores a right-padded batch like each prompt alone (position_ids and the mask of every row)', async () => {
    // Act
    const result = await scorer.score(
      shortCases[0]!.query,
      shortCases.map((c) => c.document),
    );

    // Assert: rows of different lengths share one run.
    expect(new Set(shortCases.map((c) => c.tokens)).size).toBeGreaterThan(2);
    const maxDiff = Math.max(...shortCases.map((c, i) => Math.abs(result.scores[i]! - c.logit)));
    expect(maxDiff).toBeLessThan(TOLERANCE);
  });

  it('lets the request instruction change the score, to the value transformers gives for it', async () => {
    // Arrange
    const instructed = golden.cases.find((c) => c.name === 'custom-instruction')!;

    // Act
    const plain = await scorer.score(instructed.query, [instructed.document]);
    const withInstruction = await scorer.score(instructed.query, [instructed.document], { instruction: instructed.instruction! });

    // Assert
    expect(Math.abs(withInstruction.scores[0]! - plain.scores[0]!)).toBeGreaterThan(1e-2);
    expect(Math.abs(withInstruction.scores[0]! - instructed.logit)).toBeLessThan(TOLERANCE);
  });
});

describe(`${LLM_RERANKER_KV_FIXTURE}: the fp16 KV-cache graph (float16 past and logits)`, () => {
  let scorer: CausalLmReranker;

  beforeAll(async () => {
    scorer = await loadCausalLmReranker({ id: 'qwen3-kv-fp16', folder, variant: 'fp16', threads: 1 });
  });
  afterAll(async () => {
    await scorer.close();
  });

  it.each(golden.cases.map((c) => [c.name, c] as const))(
    'scores %s like onnxruntime in Python and near fp32 transformers',
    async (_n, c) => {
      // Act
      const result = await scorer.score(c.query, [c.document], options(c));

      // Assert: the same graph as Python runs it, then the fp16 rounding against the fp32 reference.
      const logit = result.scores[0]!;
      expect(result.tokens).toBe(c.tokens);
      expect(Math.abs(logit - c.onnxLogits['onnx/model_fp16.onnx']!)).toBeLessThan(SAME_GRAPH_FP16_TOLERANCE);
      expect(Math.abs(logit - c.logit)).toBeLessThan(FP16_LOGIT_TOLERANCE);
      expect(Math.abs(sigmoid(logit) - c.score)).toBeLessThan(FP16_SCORE_TOLERANCE);
    },
  );

  it('scores a right-padded batch like each prompt alone', async () => {
    // Act
    const result = await scorer.score(
      shortCases[0]!.query,
      shortCases.map((c) => c.document),
    );

    // Assert
    const maxDiff = Math.max(...shortCases.map((c, i) => Math.abs(result.scores[i]! - c.onnxLogits['onnx/model_fp16.onnx']!)));
    expect(maxDiff).toBeLessThan(SAME_GRAPH_FP16_TOLERANCE);
  });

  it('lets the request instruction change the score', async () => {
    // Arrange
    const instructed = golden.cases.find((c) => c.name === 'custom-instruction')!;

    // Act
    const plain = await scorer.score(instructed.query, [instructed.document]);
    const withInstruction = await scorer.score(instructed.query, [instructed.document], { instruction: instructed.instruction! });

    // Assert
    expect(Math.abs(withInstruction.scores[0]! - plain.scores[0]!)).toBeGreaterThan(1e-2);
    expect(Math.abs(withInstruction.scores[0]! - instructed.onnxLogits['onnx/model_fp16.onnx']!)).toBeLessThan(SAME_GRAPH_FP16_TOLERANCE);
  });
});

// A long prompt or a large vocabulary: the batch runs in column chunks on the cache of the chunks before (48
// tokens per run here, so the 8,192-token prompt takes 171 runs and the ~100-token shared head three).
describe.each([
  ['fp32', 'onnx/model.onnx'],
  ['fp16', 'onnx/model_fp16.onnx'],
] as const)(`${LLM_RERANKER_KV_FIXTURE}: the %s graph run in chunks of 48 tokens`, (variant, file) => {
  let scorer: CausalLmReranker;

  beforeAll(async () => {
    scorer = await loadCausalLmReranker({ id: `qwen3-kv-${variant}-chunked`, folder, variant, threads: 1, maxRunTokens: 48 });
  });
  afterAll(async () => {
    await scorer.close();
  });

  it.each(golden.cases.map((c) => [c.name, c] as const))('scores %s like the graph in one run', async (_n, c) => {
    // Act
    const result = await scorer.score(c.query, [c.document], options(c));

    // Assert
    expect(Math.abs(result.scores[0]! - c.onnxLogits[file]!)).toBeLessThan(TOLERANCE);
  });

  it('scores a batch sharing its prompt head like each prompt alone', async () => {
    // Act
    const result = await scorer.score(
      shortCases[0]!.query,
      shortCases.map((c) => c.document),
    );

    // Assert
    const maxDiff = Math.max(...shortCases.map((c, i) => Math.abs(result.scores[i]! - c.onnxLogits[file]!)));
    expect(maxDiff).toBeLessThan(TOLERANCE);
  });
});

describe('a causal-LM folder holding only model_fp16.onnx (what `model:pull --variant fp16` leaves)', () => {
  let scratch: string;

  beforeAll(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'qwen3-fp16-only-'));
    await mkdir(path.join(scratch, 'onnx'));
    for (const name of ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'special_tokens_map.json', 'onnx/model_fp16.onnx']) {
      await copyFile(path.join(folder, name), path.join(scratch, name));
    }
  });
  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  it('loads that export with no variant named', async () => {
    // Arrange
    const c = golden.cases[0]!;
    const scorer = await loadCausalLmReranker({ id: 'fp16-only', folder: scratch, threads: 1 });

    // Act
    const result = await scorer.score(c.query, [c.document]);
    await scorer.close();

    // Assert
    expect(Math.abs(result.scores[0]! - c.onnxLogits['onnx/model_fp16.onnx']!)).toBeLessThan(SAME_GRAPH_FP16_TOLERANCE);
  });

  it('names every file it looked for when a requested variant is missing', async () => {
    await expect(loadCausalLmReranker({ id: 'no-q4', folder: scratch, variant: 'q4', threads: 1 })).rejects.toThrow(
      /no q4 ONNX model found \(looked for onnx\/model_q4\.onnx, model_q4\.onnx\)/,
    );
  });
});
