import { describe, expect, it } from 'vitest';
import { outcomeFromStored } from '../../../shared/engine/stored-outcome.js';

describe('outcomeFromStored', () => {
  it('rebuilds the ranked results in stored order, with documents only where asked for and present', () => {
    const documents = [{ text: 'zero' }, undefined, { text: 'two' }];
    const outcome = outcomeFromStored({
      id: 'job-1',
      model: 'm',
      ranked: [
        [2, 0.9],
        [1, 0.5],
        [0, 0.1],
      ],
      totalTokens: 7,
      documentOf: (index) => documents[index],
      wallMs: 3000,
      scoringMs: 0,
    });
    expect(outcome).toStrictEqual({
      id: 'job-1',
      model: 'm',
      results: [
        { index: 2, score: 0.9, document: { text: 'two' } },
        { index: 1, score: 0.5 },
        { index: 0, score: 0.1, document: { text: 'zero' } },
      ],
      usage: { totalTokens: 7 },
      timings: { scoringMs: 0, totalMs: 3000 },
    });
  });

  it('reports the wall time as scoring time for the metrics, with the raw scores they describe', () => {
    const outcome = outcomeFromStored({ id: 'j', model: 'm', ranked: [[0, 1]], totalTokens: 1, wallMs: 2000, rawScores: [3.5] });
    expect(outcome.timings).toStrictEqual({ scoringMs: 2000, totalMs: 2000 });
    expect(outcome.rawScores).toStrictEqual([3.5]);
    expect(outcome.results).toStrictEqual([{ index: 0, score: 1 }]);
  });
});
