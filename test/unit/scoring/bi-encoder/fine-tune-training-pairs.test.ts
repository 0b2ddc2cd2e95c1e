import { describe, expect, it } from 'vitest';
import { createBm25Scorer } from '../../../../shared/scoring/lexical/bm25-scorer.js';
import { readSourceSplit, TRAINING_SOURCES, UNSEEN_SOURCES } from '../../../../scripts/eval/eval-sources.js';
import {
  buildPairs,
  buildTrainingPairs,
  evaluationTexts,
  leakKey,
  leakingPairs,
} from '../../../../scripts/model/fine-tune-use/training-pairs.js';

const bm25 = createBm25Scorer({ id: 'bm25' });
const options = { negatives: 7, devShare: 0.1, seed: 20261126 };

describe('fine-tuning pairs (scripts/model/fine-tune-use/training-pairs.ts)', () => {
  it('contain no evaluation query and no document relevant to one, of any source (man pages included)', async () => {
    // Arrange: every evaluation query and its relevant document, read independently of the builder
    const evalSplits = await Promise.all([...TRAINING_SOURCES, ...UNSEEN_SOURCES].map((s) => readSourceSplit(s, 'eval')));
    const evaluation = new Set(
      evalSplits.flatMap((s) => s.queries.flatMap((q) => [q.query, ...q.relevant.map((i) => q.documents[i]!)])).map(leakKey),
    );

    // Act
    const { pairs } = await buildTrainingPairs(bm25, options);

    // Assert
    expect(pairs.length).toBeGreaterThan(800);
    expect(new Set(pairs.map((p) => p.source))).toEqual(new Set(TRAINING_SOURCES));
    const texts = pairs.flatMap((p) => [p.query, p.positive, ...p.negatives]);
    expect(texts.filter((t) => evaluation.has(leakKey(t)))).toEqual([]);
    expect(pairs.every((p) => p.negatives.length > 0 && p.negatives.length <= 7 && !p.negatives.includes(p.positive))).toBe(true);
  }, 120_000);

  it('drops a query whose positive is an evaluation document and skips a negative that is one', async () => {
    const evalQuery = {
      id: 'e',
      query: 'list directory contents',
      documents: ['ls lists files', 'other'],
      packages: ['0', '1'],
      relevant: [0],
    };
    const forbidden = evaluationTexts([evalQuery]);
    const train = [
      { id: 'a', query: 'show files in a folder', documents: ['LS  lists files', 'a folder viewer'], packages: ['0', '1'], relevant: [0] },
      {
        id: 'b',
        query: 'copy files',
        documents: ['ls lists files', 'cp copies files', 'files are copied by rsync'],
        packages: ['0', '1', '2'],
        relevant: [1],
      },
    ];

    const { pairs, dropped } = await buildPairs('debian', train, bm25, forbidden, options);

    expect(dropped).toBe(1);
    expect(pairs.map((p) => p.query)).toEqual(['copy files']);
    expect(pairs[0]!.negatives).toEqual(['files are copied by rsync']);
    expect(leakingPairs(pairs, forbidden)).toEqual([]);
    expect(
      leakingPairs([{ source: 'x', split: 'train', query: 'List directory contents', positive: 'p', negatives: [] }], forbidden),
    ).toHaveLength(1);
  });

  it("carries bm25's logit of the positive and of each negative, in the negatives' order (hardest first)", async () => {
    const train = [
      {
        id: 'c',
        query: 'copy files',
        documents: ['ls lists files', 'cp copies files', 'files are copied by rsync', 'a text editor'],
        packages: ['0', '1', '2', '3'],
        relevant: [1],
      },
    ];

    const { pairs } = await buildPairs('debian', train, bm25, new Set(), options);
    const [pair] = pairs;
    const { scores } = await bm25.score('copy files', train[0]!.documents);
    const probability = (logit: number): number => 1 / (1 + Math.exp(-logit));

    expect(probability(pair!.bm25Logits!.positive)).toBeCloseTo(scores[1]!, 9);
    expect(pair!.negatives.map((text) => scores[train[0]!.documents.indexOf(text)]!).map((p) => p.toFixed(9))).toEqual(
      pair!.bm25Logits!.negatives.map((logit) => probability(logit).toFixed(9)),
    );
    expect([...pair!.bm25Logits!.negatives].sort((a, b) => b - a)).toEqual(pair!.bm25Logits!.negatives);
  });
});
