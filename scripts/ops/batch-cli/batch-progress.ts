import type { RerankBatch } from '../../../shared/client/index.js';

/**
 * One progress report: lines done of total, lines/s since the start, ETA; with the service's `progress` extension, the
 * chunks done inside lines too (a long corpus line moves the bar before it ends), and the ETA from that fraction.
 */
export function progressLine(batch: RerankBatch, startedMs: number, nowMs: number, barWidth?: number): string {
  const { total, completed, failed } = batch.request_counts;
  const done = completed + failed;
  const seconds = Math.max(0.001, (nowMs - startedMs) / 1000);
  const rate = done / seconds;
  const fraction = batch.progress?.fraction;
  const eta =
    fraction !== undefined && fraction > 0 && fraction < 1
      ? `ETA ${Math.ceil((seconds * (1 - fraction)) / fraction)} s`
      : rate > 0 && total > done
        ? `ETA ${Math.ceil((total - done) / rate)} s`
        : 'ETA -';
  const { completed_chunks: chunksDone, total_chunks: chunks } = batch.progress ?? {};
  const inside =
    fraction === undefined
      ? ''
      : chunks !== undefined
        ? `  ${chunksDone}/${chunks} chunks (${Math.floor(fraction * 100)}%)`
        : `  ${Math.floor(fraction * 100)}%`;
  const counts = `${done}/${total} lines (${failed} failed)${inside}  ${rate.toFixed(1)} lines/s  ${eta}  ${batch.status}`;
  if (barWidth === undefined) return counts;
  const filled = fraction !== undefined ? Math.round(fraction * barWidth) : total > 0 ? Math.round((done / total) * barWidth) : 0;
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
