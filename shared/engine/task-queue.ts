/**
 * The queue port of the async engine: how tasks reach workers, whatever their kind. Its lanes are instances of it -
 * `ChunkQueue` (jobs' chunk and finish tasks) and `BatchTaskQueue` (batches' plan, chunk and finalize tasks) - served by
 * one SQS adapter (SqsTaskQueue) on AWS and by in-process queues for `npm start`. Delivery is at least once: every
 * handler tolerates a task delivered twice.
 */
export interface TaskQueue<T> {
  send(tasks: readonly T[], options?: SendOptions): Promise<void>;
}

export interface SendOptions {
  /**
   * Whose work this is (the API key's non-secret id). Workers are shared fairly across tenants: SQS fair queues take it
   * as the MessageGroupId of a standard queue, the in-process queue serves its tenants' chunks in turn. Absent = a task
   * of its own (as SQS treats a message without a group).
   */
  readonly tenant?: string;
}
