/**
 * A dead-lettered chunk's (or merge task's) message body names its job if it is readable at all (a poison body may not decode as a
 * ChunkTask, so only the two fields are read); the job then fails with this reason instead of waiting for a chunk
 * that will never come.
 */
export function deadLetteredChunk(body: string): { jobId: string; chunkIndex: number | undefined; reason: string } | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const { jobId, chunkIndex, kind } = parsed as { jobId?: unknown; chunkIndex?: unknown; kind?: unknown };
  if (typeof jobId !== 'string') return undefined;
  if (kind === 'merge') {
    return {
      jobId,
      chunkIndex: undefined,
      reason: 'the job could not be merged: its merge failed on every delivery and was moved to the dead-letter queue',
    };
  }
  // No attempt count in the reason: ApproximateReceiveCount keeps counting on the dead-letter queue.
  const chunk = typeof chunkIndex === 'number' ? `chunk ${chunkIndex}` : 'a chunk';
  return {
    jobId,
    chunkIndex: typeof chunkIndex === 'number' ? chunkIndex : undefined,
    reason: `${chunk} could not be scored: it failed on every delivery and was moved to the dead-letter queue`,
  };
}
