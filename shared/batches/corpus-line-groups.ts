import type { BatchChunkTask } from './batch-model.js';
import type { CorpusChunk } from './corpus-chunks.js';

/**
 * Scores a group may hold in the chunk ledger at once (its lines x the corpus' documents): a group's lines all end
 * with its last shard, so until then every line's scores are recorded. 16M scores is ~128 MB in a process's memory
 * store: a million-document corpus is grouped 16 lines at a time, a 50,000-document one 64.
 */
export const GROUP_LEDGER_SCORES = 16_000_000;

/** Lines of one group over a corpus of `documents`: the configured bound, lower for corpora whose scores would pass the budget. */
export const groupLinesFor = (documents: number, maxLines: number): number => Math.max(1, Math.min(maxLines, Math.floor(GROUP_LEDGER_SCORES / Math.max(1, documents))));

interface OpenGroup {
  readonly lines: number[];
  readonly chunks: readonly CorpusChunk[];
}

/**
 * The planner's open groups of lines over one stored corpus (keyed by file version and model): a group's tasks, one
 * per shard, are made when it is full or when the planner sends what it has (before every checkpoint, so a resumed
 * run never finds a line recorded whose tasks were not sent).
 */
export class CorpusLineGroups {
  readonly #open = new Map<string, OpenGroup>();
  readonly #batchId: string;

  constructor(batchId: string) {
    this.#batchId = batchId;
  }

  /** Adds a line to its group (of at most `maxLines`); the group's tasks when this line filled it, else none yet. */
  add(key: string, line: number, chunks: readonly CorpusChunk[], maxLines: number): BatchChunkTask[] {
    let group = this.#open.get(key);
    if (!group) {
      group = { lines: [], chunks };
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

/** One task per shard for the whole group; a group of one is the one-line form stacks sent before grouping. */
function groupTasks(batchId: string, group: OpenGroup): BatchChunkTask[] {
  const line = group.lines[0] as number;
  const lines = group.lines.length > 1 ? { lines: [...group.lines] } : {};
  return group.chunks.map((chunk, chunkIndex) => ({ kind: 'chunk', batchId, line, chunkIndex, offset: chunk.offset, count: chunk.count, corpusRange: chunk.range, ...lines }));
}
