import { describe, expect, it } from 'vitest';
import { CutsTally, MAX_STORED_CUTS, truncatedHeader, truncationWarnings } from '../../../shared/core/request-controls.js';

describe("CutsTally: a request's cuts gathered over its chunks", () => {
  it('offsets each chunk to the request, keeps the query cut, and is undefined when nothing was cut', () => {
    expect(new CutsTally().add(undefined).cuts).toBeUndefined();
    const tally = new CutsTally().add({ documents: [[1, 3]] }, 0).add({ query: 4, documents: [[0, 3]] }, 10);
    expect(tally.cuts).toEqual({
      query: 4,
      documents: [
        [1, 3],
        [10, 3],
      ],
    });
  });

  it('lists the first MAX_STORED_CUTS cut documents and counts the rest, in the header and the warnings', () => {
    const chunk = (offset: number) => ({ documents: Array.from({ length: 600 }, (_, i) => [offset + i, 2] as const) });
    const cuts = new CutsTally().add(chunk(0)).add(chunk(600)).add({ documents: [], more: 5 }).cuts;
    expect(cuts?.documents).toHaveLength(MAX_STORED_CUTS);
    expect(cuts?.documents.at(-1)).toEqual([MAX_STORED_CUTS - 1, 2]);
    expect(cuts?.more).toBe(1_200 - MAX_STORED_CUTS + 5);
    expect(truncatedHeader(cuts)?.endsWith(`, 99=2, +${1_200 + 5 - 100} more`)).toBe(true);
    expect(truncationWarnings(cuts).at(-1)).toBe('205 more documents truncated');
  });

  it("once a document is counted, later chunks' cuts are counted too: what is listed is always the first cuts", () => {
    const cuts = new CutsTally().add({ documents: [[0, 1]], more: 2 }).add({ documents: [[5, 1]] }).cuts;
    expect(cuts).toEqual({ documents: [[0, 1]], more: 3 });
  });
});
