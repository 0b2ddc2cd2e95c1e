import type { ChunkLedger, ChunkRecorded, LedgerChunkScores } from '../../engine/chunk-ledger.js';

interface LineChunks {
  /** Chunk indices counted; kept after the scores are dropped, as the DynamoDB adapter's counters are. */
  readonly counted: Set<number>;
  readonly scores: Map<number, LedgerChunkScores>;
}

/**
 * The embedded ChunkLedger (npm start, tests): write-once chunks, each counted once, as DynamoDB's conditions give the
 * other adapter. Every method changes its state before its first await, so concurrent calls in one process are atomic.
 */
export class InMemoryChunkLedger implements ChunkLedger {
  readonly #lines = new Map<string, LineChunks>();
  /** A finished request counts no more chunks (the batch store's result lines; jobs have none here). */
  readonly #isFinished: (owner: string, line: number) => boolean;

  constructor(isFinished: (owner: string, line: number) => boolean = () => false) {
    this.#isFinished = isFinished;
  }

  #line(owner: string, line: number): LineChunks {
    const key = `${owner}\n${line}`;
    let chunks = this.#lines.get(key);
    if (!chunks) this.#lines.set(key, (chunks = { counted: new Set(), scores: new Map() }));
    return chunks;
  }

  async putChunkScores(owner: string, line: number, scores: LedgerChunkScores, _chunkCount: number): Promise<ChunkRecorded> {
    const chunks = this.#line(owner, line);
    if (chunks.counted.has(scores.chunkIndex) || this.#isFinished(owner, line)) return { recorded: false, chunksDone: chunks.counted.size };
    chunks.counted.add(scores.chunkIndex);
    chunks.scores.set(scores.chunkIndex, {
      ...scores,
      scores: [...scores.scores],
      ...(scores.lexical ? { lexical: [...scores.lexical] } : {}),
      ...(scores.positions ? { positions: [...scores.positions] } : {}),
    });
    return { recorded: true, chunksDone: chunks.counted.size };
  }

  async *readChunkScores(owner: string, line: number): AsyncIterable<LedgerChunkScores> {
    const scores = this.#lines.get(`${owner}\n${line}`)?.scores;
    if (scores) yield* [...scores.entries()].sort((a, b) => a[0] - b[0]).map(([, chunk]) => chunk);
  }

  async deleteChunkScores(owner: string, line: number): Promise<void> {
    this.#lines.get(`${owner}\n${line}`)?.scores.clear();
  }

  async countChunks(owner: string, line: number): Promise<number> {
    return this.#lines.get(`${owner}\n${line}`)?.counted.size ?? 0;
  }

  /** Forgets an owner's lines (a batch's dropped work). */
  forget(owner: string): void {
    for (const key of this.#lines.keys()) if (key.startsWith(`${owner}\n`)) this.#lines.delete(key);
  }
}
