import type { Worker } from 'node:worker_threads';

/** A run sent to an ONNX worker, waiting for its answer. */
export interface PendingRun<T> {
  resolve(value: T): void;
  reject(error: Error): void;
}

/**
 * Settles the run a worker answered ('result' or 'error'), and lets the worker stop holding the process open once
 * nothing is in flight (tests and CLI scripts end when their work does).
 */
export function settleRun<T>(
  worker: Worker,
  pending: Map<number, PendingRun<T>>,
  id: number,
  label: string,
  answer: { readonly value: T } | { readonly error: string },
): void {
  const run = pending.get(id);
  pending.delete(id);
  if (pending.size === 0) worker.unref();
  if ('error' in answer) run?.reject(new Error(`${label}: ${answer.error}`));
  else run?.resolve(answer.value);
}

/** A worker whose session could not load: stopped, and the reason for its start to fail with. */
export function loadFailure(worker: Worker, label: string, onnxPath: string, message: string): Error {
  void worker.terminate();
  return new Error(`${label}: cannot load ${onnxPath}: ${message}`);
}
