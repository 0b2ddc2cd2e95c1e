import type { RerankBatch } from '../../shared/client/index.js';

/** One progress report: lines done of total, lines/s since the start, ETA. */
export function progressLine(batch: RerankBatch, startedMs: number, nowMs: number, barWidth?: number): string {
  const { total, completed, failed } = batch.request_counts;
  const done = completed + failed;
  const seconds = Math.max(0.001, (nowMs - startedMs) / 1000);
  const rate = done / seconds;
  const eta = rate > 0 && total > done ? `ETA ${Math.ceil((total - done) / rate)} s` : 'ETA -';
  const counts = `${done}/${total} lines (${failed} failed)  ${rate.toFixed(1)} lines/s  ${eta}  ${batch.status}`;
  if (barWidth === undefined) return counts;
  const filled = total > 0 ? Math.round((done / total) * barWidth) : 0;
  return `[${'#'.repeat(filled)}${'.'.repeat(barWidth - filled)}] ${counts}`;
}

/**
 * Progress for a terminal (one bar redrawn in place) or for logs and pipes (a plain line per change), so a CI
 * log is never full of carriage returns.
 */
export function progressReporter(stream: NodeJS.WriteStream, startedMs: number): { update(batch: RerankBatch): void; end(): void } {
  const tty = stream.isTTY === true;
  let drawn = false;
  return {
    update(batch) {
      const now = Date.now();
      if (tty) {
        stream.write(`\r${progressLine(batch, startedMs, now, 30)}\x1b[K`);
        drawn = true;
      } else stream.write(`${new Date(now).toISOString()} ${batch.id} ${progressLine(batch, startedMs, now)}\n`);
    },
    end() {
      if (drawn) stream.write('\n');
    },
  };
}
