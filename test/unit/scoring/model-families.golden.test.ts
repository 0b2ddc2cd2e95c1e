import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCausalLmReranker, type CausalLmReranker } from '../../../shared/scoring/causal-lm/index.js';
import { loadOnnxCrossEncoder, type OnnxCrossEncoder } from '../../../shared/scoring/onnx-cross-encoder.js';
import { readModelFolder } from '../../../shared/scoring/model-folder.js';
import { createPairTokenizer } from '../../../shared/scoring/pair-tokenizer.js';
import {
  CROSS_ENCODER_FAMILIES,
  familyFolder,
  LLM_RERANKER_FIXTURE,
  loadFamilyGolden,
  sigmoid,
  type LlmGolden,
} from './family-fixtures.js';

// Faithfulness per family: tokens, truncation, graph inputs, head and activation must reproduce what Python
// transformers / sentence-transformers compute on the same weights (scripts/model/family-golden.py).
const TOLERANCE = 1e-4;

describe.each(CROSS_ENCODER_FAMILIES)('%s vs sentence-transformers', (name) => {
  const golden = loadFamilyGolden(name);
  let scorer: OnnxCrossEncoder;

  beforeAll(async () => {
    scorer = await loadOnnxCrossEncoder({ id: name, folder: familyFolder(name), threads: 1 });
  });
  afterAll(async () => {
    await scorer.close();
  });

  it('feeds exactly the graph inputs of the family and honours its max length', () => {
    expect(scorer.inputNames).toEqual(['input_ids', 'attention_mask']);
    expect(scorer.maxLength).toBe(golden.maxLength);
  });

  it.each(golden.cases.filter((c) => c.inputIds !== null).map((c) => [c.name, c] as const))(
    'tokenizes %s exactly like Python',
    async (_n, c) => {
      // Arrange
      const folder = await readModelFolder(familyFolder(name));
      const tokenizer = createPairTokenizer({ ...folder, padTokenId: folder.config.padTokenId });

      // Act
      const encoded = tokenizer.encodePair(c.query, c.document);

      // Assert
      expect(encoded.inputIds).toEqual(c.inputIds);
    },
  );

  it.each(golden.cases.map((c) => [c.name, c] as const))('scores %s like CrossEncoder.predict', async (_n, c) => {
    // Act
    const result = await scorer.score(c.query, [c.document]);

    // Assert: same truncated length, and the probability the core derives (sigmoid) equals Python's.
    expect(result.tokens).toBe(c.tokens);
    expect(Math.abs(sigmoid(result.scores[0]!) - c.score)).toBeLessThan(TOLERANCE);
  });

  it('scores a padded batch of every golden document of one query like Python, pair by pair', async () => {
    // Arrange
    const query = golden.cases[0]!.query;
    const cases = golden.cases.filter((c) => c.query === query);

    // Act
    const result = await scorer.score(
      query,
      cases.map((c) => c.document),
    );

    // Assert
    const maxDiff = Math.max(...cases.map((c, i) => Math.abs(sigmoid(result.scores[i]!) - c.score)));
    expect(maxDiff).toBeLessThan(TOLERANCE);
  });
});

describe('two-label heads follow the config as sentence-transformers does', () => {
  it('reads a softmax head as logit(relevant) - logit(not relevant) and a Sigmoid head as logit(relevant)', () => {
    // Arrange
    const softmax = loadFamilyGolden('xlmr-2label-softmax-fixture');
    const sigmoidHead = loadFamilyGolden('xlmr-2label-sigmoid-fixture');

    // Assert: the golden scores themselves pin which reading each config calls for.
    expect(softmax.activation).toBe('Identity');
    expect(sigmoidHead.activation).toBe('Sigmoid');
    for (const c of softmax.cases) expect(Math.abs(sigmoid(c.logits[1]! - c.logits[0]!) - c.score)).toBeLessThan(1e-6);
    for (const c of sigmoidHead.cases) expect(Math.abs(sigmoid(c.logits[1]!) - c.score)).toBeLessThan(1e-6);
  });
});

describe(`${LLM_RERANKER_FIXTURE} vs the Qwen3-Reranker recipe in transformers`, () => {
  const golden = loadFamilyGolden<LlmGolden>(LLM_RERANKER_FIXTURE);
  let scorer: CausalLmReranker;

  beforeAll(async () => {
    scorer = await loadCausalLmReranker({ id: 'qwen3', folder: familyFolder(LLM_RERANKER_FIXTURE), threads: 1 });
  });
  afterAll(async () => {
    await scorer.close();
  });

  it('uses the Qwen3-Reranker template and max length', () => {
    expect(scorer.template.prefix).toBe(golden.prefix);
    expect(scorer.template.suffix).toBe(golden.suffix);
    expect(scorer.template.defaultInstruction).toBe(golden.defaultInstruction);
    expect(scorer.maxLength).toBe(golden.maxLength);
    expect(scorer.usesInstruction).toBe(true);
  });

  it.each(golden.cases.map((c) => [c.name, c] as const))('builds the prompt of %s token for token', (_n, c) => {
    // Act
    const ids = scorer.encode(c.query, c.document, c.instruction ?? undefined);

    // Assert
    expect(ids.length).toBe(c.tokens);
    if (c.inputIds !== null) expect(ids).toEqual(c.inputIds);
  });

  it('tokenizes the instruction and query once per request and builds the same prompts as encoding each pair whole', () => {
    const documents = [
      'plain words',
      '"quoted" start',
      ' leading space',
      '\nnewline first',
      '数据库 CJK',
      '🙂 emoji',
      '',
      ...golden.cases.map((c) => c.document),
    ];
    for (const instruction of [undefined, 'Find passages about databases.', 'x'.repeat(5_000)]) {
      const together = scorer.encodeRequest('which database is fastest', documents, instruction);
      expect(together).toEqual(documents.map((d) => scorer.encode('which database is fastest', d, instruction)));
    }
  });

  it.each(golden.cases.map((c) => [c.name, c] as const))('scores %s as p(yes) like transformers', async (_n, c) => {
    // Act
    const result = await scorer.score(c.query, [c.document], c.instruction === null ? undefined : { instruction: c.instruction });

    // Assert
    expect(result.tokens).toBe(c.tokens);
    expect(Math.abs(result.scores[0]! - c.logit)).toBeLessThan(TOLERANCE);
    expect(Math.abs(sigmoid(result.scores[0]!) - c.score)).toBeLessThan(TOLERANCE);
  });

  it('scores a right-padded batch like each prompt alone', async () => {
    // Arrange
    const cases = golden.cases.filter((c) => c.instruction === null && c.query === golden.cases[0]!.query && c.tokens < 2000);

    // Act
    const result = await scorer.score(
      cases[0]!.query,
      cases.map((c) => c.document),
    );

    // Assert
    expect(cases.length).toBeGreaterThan(2);
    const maxDiff = Math.max(...cases.map((c, i) => Math.abs(result.scores[i]! - c.logit)));
    expect(maxDiff).toBeLessThan(TOLERANCE);
  });

  it('lets the instruction change the score', async () => {
    // Arrange
    const c = golden.cases[0]!;

    // Act
    const plain = await scorer.score(c.query, [c.document]);
    const instructed = await scorer.score(c.query, [c.document], { instruction: 'Judge whether the document is written in French' });

    // Assert
    expect(instructed.scores[0]).not.toBeCloseTo(plain.scores[0]!, 4);
  });
});
