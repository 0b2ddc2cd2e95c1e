import type { BatchChunkTask } from './batch-model.js';
import type { CorpusChunk } from './corpus-chunks.js';

/**
 * Scores a group may hold in the chunk ledger at once (its lines x the scores each records): a group's lines all end
 * with its last span, so until then every line's scores are recorded. 16M scores is ~128 MB in a process's memory
 * store. A line with a top_n records each span's top_n (pruneChunkScores), one without records every document: over
 * a million documents the first kind is grouped 64 at a time, the second 16.
 */
export const GROUP_LEDGER_SCORES = 16_000_000;

/** The scores a corpus line keeps in the ledger: its tasks' (spans') top_n each, or every document's when it has none. */
export const ledgerScoresOfLine = (documents: number, tasks: number, topN: number | undefined): number =>
  topN === undefined ? documents : Math.min(documents, tasks * topN);

/** Lines of one group whose lines record `scoresPerLine` each: the configured bound, lower where they would pass the budget. */
export const groupLinesFor = (scoresPerLine: number, maxLines: number): number =>
  Math.max(1, Math.min(maxLines, Math.floor(GROUP_LEDGER_SCORES / Math.max(1, scoresPerLine))));

interface OpenGroup {
  readonly lines: number[];
  readonly spans: readonly CorpusSpan[];
}

/**
 * The planner's open groups of lines over one stored corpus (keyed by file version and model): a group's tasks, one
 * per span of shards, are made when it is full or when the planner sends what it has (before every checkpoint, so a resumed
 * run never finds a line recorded whose tasks were not sent).
 */
export class CorpusLineGroups {
  readonly #open = new Map<string, OpenGroup>();
  readonly #batchId: string;

  constructor(batchId: string) {
    this.#batchId = batchId;
  }

  /** Adds a line to its group (of at most `maxLines`); the group's tasks when this line filled it, else none yet. */
  add(key: string, line: number, spans: readonly CorpusSpan[], maxLines: number): BatchChunkTask[] {
    let group = this.#open.get(key);
    if (!group) {
      group = { lines: [], spans };
      this.#open.set(key, group);
    }
    group.lines.push(line);
    if (group.lines.length < maxLines) return [];
    this.#open.delete(key);
    return groupTasks(this.#batchId, group);
  }

  /** Every open group's tasks; none is left open. */
  drain(): BatchChunkTask[] {
    const tasks = [...this.#open.values()].flatMap((group) => groupTasks(this.#batchId, group));
    this.#open.clear();
    return tasks;
  }
}

/** One task per span for the whole group; a group of one is the one-line form stacks sent before grouping. */
function groupTasks(batchId: string, group: OpenGroup): BatchChunkTask[] {
  const line = group.lines[0] as number;
  const lines = group.lines.length > 1 ? { lines: [...group.lines] } : {};
  return group.spans.map((span, chunkIndex) => ({
    kind: 'chunk',
    batchId,
    line,
    chunkIndex,
    offset: span.offset,
    count: span.count,
    corpusRange: span.range,
    ...lines,
    ...(span.shards.length > 1 ? { shards: span.shards } : {}),
  }));
}

/** A run of consecutive shards one task scores: their documents and bytes together, and each shard. */
export interface CorpusSpan extends CorpusChunk {
  readonly shards: readonly CorpusChunk[];
}

/** The corpus's shards cut into runs of at most `shardsPerTask` (the last may be shorter): a group's tasks, in order. */
export function corpusSpans(chunks: readonly CorpusChunk[], shardsPerTask: number): CorpusSpan[] {
  const spans: CorpusSpan[] = [];
  const size = Math.max(1, Math.floor(shardsPerTask));
  for (let at = 0; at < chunks.length; at += size) {
    const shards = chunks.slice(at, at + size);
    const first = shards[0] as CorpusChunk;
    const last = shards[shards.length - 1] as CorpusChunk;
    spans.push({
      offset: first.offset,
      count: last.offset + last.count - first.offset,
      range: { start: first.range.start, end: last.range.end },
      shards,
    });
  }
  return spans;
}
