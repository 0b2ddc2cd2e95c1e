import type * as ort from 'onnxruntime-node';

/**
 * The part of an ONNX Runtime session a family drives run by run (the causal-LM reranker: its KV-cache runs): the
 * graph's names and metadata, and `run` with the outputs to fetch. Served by a session in this thread or by one on
 * a worker thread (startSessionWorker), so the event loop stays free while the graph runs.
 */
export interface OnnxSession {
  readonly inputNames: readonly string[];
  readonly outputNames: readonly string[];
  readonly inputMetadata: readonly ort.InferenceSession.ValueMetadata[];
  readonly outputMetadata: readonly ort.InferenceSession.ValueMetadata[];
  run(feeds: Readonly<Record<string, ort.Tensor>>, fetches: readonly string[]): Promise<Record<string, ort.Tensor>>;
  release(): Promise<void>;
}

/** A session in this thread as an OnnxSession (session.run() then holds the event loop for the whole run). */
export function inThreadSession(session: ort.InferenceSession): OnnxSession {
  return {
    inputNames: session.inputNames,
    outputNames: session.outputNames,
    inputMetadata: session.inputMetadata,
    outputMetadata: session.outputMetadata,
    run: async (feeds, fetches) => (await session.run(feeds as Record<string, ort.Tensor>, [...fetches])) as Record<string, ort.Tensor>,
    release: () => session.release(),
  };
}
