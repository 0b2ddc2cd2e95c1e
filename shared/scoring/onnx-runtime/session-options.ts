import type { InferenceSession } from 'onnxruntime-node';

/**
 * Session options of every family's ONNX sessions, chosen by measurement (scripts/bench, bench/report.md): one graph
 * run at a time, so inter-op threads would only compete with intra-op ones; full graph optimizations
 * (attention/GELU/LayerNorm fusions) help fp32 and int8 alike. Memory pattern planning stays off: shapes change
 * every batch.
 */
export function onnxSessionOptions(threads: number): InferenceSession.SessionOptions {
  return {
    intraOpNumThreads: threads,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
    enableMemPattern: false,
  };
}
