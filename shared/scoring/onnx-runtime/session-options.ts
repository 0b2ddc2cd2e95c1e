import type { InferenceSession } from 'onnxruntime-node';

/**
 * Session options of every family's ONNX sessions, chosen by measurement (scripts/measure/scoring, bench/report.md): one graph
 * run at a time, so inter-op threads would only compete with intra-op ones; full graph optimizations
 * (GELU / LayerNorm / MatMul fusions) help fp32 and int8 alike. They fuse no attention: onnxruntime's session-time
 * optimizer left 0 Attention nodes in torch 2.13's and in the Hub's BERT exports (counted; bench/quantization-recipes.md);
 * contrib Attention comes only from the offline transformer optimizer (int8_recipes.fuse_bert). Memory pattern
 * planning stays off: shapes change every batch.
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
