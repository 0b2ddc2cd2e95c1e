import type { BatchView } from '../../batches/batch-engine.js';

/** The OpenAI batch object (`#/components/schemas/Batch`); timestamps and file ids appear once they exist. */
export function batchObject({ batch, counts, progress }: BatchView): Record<string, unknown> {
  const optional = (name: string, value: unknown) => (value === undefined ? {} : { [name]: value });
  return {
    id: batch.id,
    object: 'batch',
    endpoint: batch.endpoint,
    ...(batch.errors
      ? {
          errors: {
            object: 'list',
            data: batch.errors.map((e) => ({ code: e.code, message: e.message, param: e.param ?? null, line: e.line ?? null })),
          },
        }
      : {}),
    input_file_id: batch.inputFileId,
    completion_window: batch.completionWindow,
    status: batch.status,
    ...optional('output_file_id', batch.outputFileId),
    ...optional('error_file_id', batch.errorFileId),
    created_at: batch.createdAt,
    ...optional('in_progress_at', batch.inProgressAt),
    expires_at: batch.expiresAt,
    ...optional('finalizing_at', batch.finalizingAt),
    ...optional('completed_at', batch.completedAt),
    ...optional('failed_at', batch.failedAt),
    ...optional('expired_at', batch.expiredAt),
    ...optional('cancelling_at', batch.cancellingAt),
    ...optional('cancelled_at', batch.cancelledAt),
    request_counts: { total: counts.total, completed: counts.completed, failed: counts.failed },
    // Our extension (OpenAI's SDKs keep unknown fields): how much is done inside lines, which request_counts cannot say.
    ...(progress
      ? {
          progress: {
            fraction: Number(progress.fraction.toFixed(4)),
            ...optional('completed_chunks', progress.completedChunks),
            ...optional('total_chunks', progress.totalChunks),
            ...optional('phase', progress.phase),
            ...optional('corpus_documents_analysed', progress.corpusDocumentsAnalysed),
            ...optional('corpus_documents', progress.corpusDocuments),
          },
        }
      : {}),
    metadata: batch.metadata ?? null,
  };
}
