/** Batch metrics' CloudWatch names: written by record-batch-metrics.ts, graphed by the dashboard (infra, at synth). */
export type BatchChunkSource = 'analysed' | 'stored' | 'encoded';

export const BATCH_CHUNKS_METRIC = 'BatchChunks';
export const BATCH_CHUNK_DOCUMENTS_METRIC = 'BatchChunkDocuments';
export const BATCH_CHUNK_SOURCE_DIMENSION = 'source';
export const BATCH_SOURCES: readonly BatchChunkSource[] = ['analysed', 'stored', 'encoded'];
