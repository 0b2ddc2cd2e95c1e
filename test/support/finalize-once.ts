import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { Scorer } from '../../shared/core/scorer.js';
import type { FileStore, FileWriter } from '../../shared/files/file-store.js';

/**
 * What the finalize-once tests share (in-process queue and emulators): a scorer held at a gate, so a batch's lines are
 * in flight when its end is claimed; a FileStore that counts each output file's writers and the peak bytes its owner
 * lists; a worker that counts finalize deliveries that failed.
 */

/** A scorer whose calls wait at a gate the test opens: the lines stay in flight, not a corpus sized to be slow. */
export function gatedScorer(inner: Scorer): {
  scorer: Scorer;
  waiting: (calls: number) => Promise<void>;
  open: () => void;
  entered: () => number;
} {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let entered = 0;
  const watchers: { calls: number; resolve: () => void }[] = [];
  const scorer: Scorer = {
    ...inner,
    id: inner.id,
    score: async (query, documents, options) => {
      entered++;
      for (const w of watchers.filter((w) => entered >= w.calls)) w.resolve();
      await gate;
      return inner.score(query, documents, options);
    },
  };
  const waiting = (calls: number) =>
    entered >= calls ? Promise.resolve() : new Promise<void>((resolve) => watchers.push({ calls, resolve }));
  return { scorer, waiting, open, entered: () => entered };
}

/** Per file name: writers opened and closed; and the most bytes of batches' output files one owner listed at once. */
export class WatchedFiles {
  readonly opened = new Map<string, number>();
  readonly closed = new Map<string, number>();
  peakListedBytes = 0;
  readonly files: FileStore;

  constructor(inner: FileStore, owner: string) {
    const listedBytes = async (): Promise<number> => {
      let bytes = 0;
      let after: string | undefined;
      for (;;) {
        const page = await inner.list(owner, { limit: 100, purpose: 'batch_output', ...(after ? { after } : {}) });
        bytes += page.files.filter((f) => f.filename.endsWith('_output.jsonl')).reduce((sum, f) => sum + f.bytes, 0);
        if (!page.hasMore || page.files.length === 0) return bytes;
        after = page.files.at(-1)?.id;
      }
    };
    const bump = (map: Map<string, number>, name: string) => map.set(name, (map.get(name) ?? 0) + 1);
    this.files = new Proxy(inner, {
      get: (target, name, receiver) => {
        if (name !== 'openWriter') {
          const value = Reflect.get(target, name, receiver) as unknown;
          return typeof value === 'function' ? value.bind(target) : value;
        }
        return async (file: Parameters<FileStore['openWriter']>[0]): Promise<FileWriter> => {
          const writer = await target.openWriter(file);
          bump(this.opened, file.filename);
          return {
            id: writer.id,
            write: (chunk) => writer.write(chunk),
            abort: () => writer.abort(),
            close: async () => {
              const record = await writer.close();
              bump(this.closed, file.filename);
              if (file.ownerKeyId === owner) this.peakListedBytes = Math.max(this.peakListedBytes, await listedBytes());
              return record;
            },
          };
        };
      },
    });
  }

  /** Writers opened for the batch's output and error files: one each, whatever raced. */
  writersOf(batchId: string): { output: number; error: number } {
    return { output: this.opened.get(`${batchId}_output.jsonl`) ?? 0, error: this.opened.get(`${batchId}_error.jsonl`) ?? 0 };
  }
}

/**
 * Wraps a queue consumer: counts the finalize records it reported failed (each would be delivered again), counts the
 * chunk deliveries it finished, and can hold finalize deliveries back until released (so the lines in flight end while
 * the batch is still `finalizing`, whatever the queue's timing).
 */
export function watchedWorker(worker: (event: SQSEvent) => Promise<SQSBatchResponse>): {
  worker: (event: SQSEvent) => Promise<SQSBatchResponse>;
  failures: () => number;
  chunksDone: (count: number) => Promise<void>;
  holdFinalizes: () => void;
  releaseFinalizes: () => void;
} {
  let failures = 0;
  let chunks = 0;
  const chunkWatchers: { count: number; resolve: () => void }[] = [];
  let held: Promise<void> | undefined;
  let release = () => {};
  const kindOf = (body: string) => (JSON.parse(body) as { kind?: string }).kind;
  return {
    worker: async (event) => {
      if (held && event.Records.some((r) => kindOf(r.body) === 'finalize')) await held;
      const response = await worker(event);
      const failed = new Set(response.batchItemFailures.map((f) => f.itemIdentifier));
      for (const record of event.Records) {
        const kind = kindOf(record.body);
        if (failed.has(record.messageId) && kind === 'finalize') failures++;
        if (kind === 'chunk') chunks++;
      }
      for (const w of chunkWatchers.filter((w) => chunks >= w.count)) w.resolve();
      return response;
    },
    failures: () => failures,
    chunksDone: (count) => (chunks >= count ? Promise.resolve() : new Promise((resolve) => chunkWatchers.push({ count, resolve }))),
    holdFinalizes: () => {
      held = new Promise((resolve) => (release = resolve));
    },
    releaseFinalizes: () => {
      held = undefined;
      release();
    },
  };
}
