import type { RerankBatch } from '../../../shared/client/index.js';

/** Where a rate is measured from: a moment, and the lines, fraction and corpus documents done by then. */
export interface RateStart {
  readonly atMs: number;
  readonly lines: number;
  readonly fraction: number;
  readonly documents: number;
}

const startOf = (batch: RerankBatch, atMs: number): RateStart => ({
  atMs,
  lines: batch.request_counts.completed + batch.request_counts.failed,
  fraction: batch.progress?.fraction ?? 0,
  documents: batch.progress?.corpus_documents_analysed ?? 0,
});

/** A rate for people: a unit, one decimal, or '-' before anything has moved (never a misleading 0.0). */
const rateText = (perSecond: number, unit: string): string => (perSecond > 0 ? `${perSecond.toFixed(1)} ${unit}/s` : `- ${unit}/s`);
const etaText = (left: number, perSecond: number): string => (perSecond > 0 && left > 0 ? `ETA ${Math.ceil(left / perSecond)} s` : 'ETA -');

/**
 * One progress report. While a corpus is first analysed (`progress.phase` `analysing_corpus`): the documents analysed of
 * all, documents/s measured since the phase was first seen, and the analysis' ETA at that rate. Otherwise lines done of
 * total; with the service's `progress` extension the chunks inside lines too, and the rate and ETA from that fraction
 * when no line has finished yet (a long corpus line). `start` is where the rates are measured from (a number: that
 * moment, with nothing done).
 */
export function progressLine(batch: RerankBatch, start: number | RateStart, nowMs: number, barWidth?: number): string {
  const from = typeof start === 'number' ? { atMs: start, lines: 0, fraction: 0, documents: 0 } : start;
  const seconds = Math.max(0.001, (nowMs - from.atMs) / 1000);
  const progress = batch.progress;
  const fraction = progress?.fraction;
  let text: string;
  if (progress?.phase === 'analysing_corpus' && progress.corpus_documents !== undefined) {
    const analysed = progress.corpus_documents_analysed ?? 0;
    const rate = (analysed - from.documents) / seconds;
    const share = progress.corpus_documents > 0 ? Math.floor((analysed / progress.corpus_documents) * 100) : 0;
    text =
      `analysing corpus (once per corpus and model): ${analysed}/${progress.corpus_documents} documents (${share}%)  ` +
      `${rateText(rate, 'documents')}  ${etaText(progress.corpus_documents - analysed, rate)}  ${batch.status}`;
  } else text = linesText(batch, from, seconds);
  if (barWidth === undefined) return text;
  const { total, completed, failed } = batch.request_counts;
  const filled =
    fraction !== undefined ? Math.round(fraction * barWidth) : total > 0 ? Math.round(((completed + failed) / total) * barWidth) : 0;
  return `[${'#'.repeat(filled)}${'.'.repeat(barWidth - filled)}] ${text}`;
}

function linesText(batch: RerankBatch, from: RateStart, seconds: number): string {
  const { total, completed, failed } = batch.request_counts;
  const done = completed + failed;
  const lineRate = (done - from.lines) / seconds;
  const fraction = batch.progress?.fraction;
  const fractionRate = fraction === undefined ? 0 : (fraction - from.fraction) / seconds;
  // The ETA follows the finest measure there is: the fraction (inside lines) when the service gives one.
  const eta =
    fraction !== undefined && fraction < 1 && fractionRate > 0 ? etaText(1 - fraction, fractionRate) : etaText(total - done, lineRate);
  const { completed_chunks: chunksDone, total_chunks: chunks } = batch.progress ?? {};
  const inside =
    fraction === undefined
      ? ''
      : chunks !== undefined
        ? `  ${chunksDone}/${chunks} chunks (${Math.floor(fraction * 100)}%)`
        : `  ${Math.floor(fraction * 100)}%`;
  // No line done yet but work inside lines moving: the rate is that work's (%/s), not 0.0 lines/s.
  const rate = lineRate === 0 && fractionRate > 0 ? rateText(fractionRate * 100, '%') : rateText(lineRate, 'lines');
  return `${done}/${total} lines (${failed} failed)${inside}  ${rate}  ${eta}  ${batch.status}`;
}

/**
 * Progress for a terminal (one bar redrawn in place) or for logs and pipes (a plain line per change), so a CI
 * log is never full of carriage returns. Rates are measured from the start, and again from the moment a new phase
 * (the corpus analysis, then scoring) is first seen.
 */
export function progressReporter(
  stream: Pick<NodeJS.WriteStream, 'write' | 'isTTY'>,
  startedMs: number,
  now: () => number = Date.now,
): { update(batch: RerankBatch): void; end(): void } {
  const tty = stream.isTTY === true;
  let drawn = false;
  let phase: string | undefined;
  let start: number | RateStart = startedMs;
  return {
    update(batch) {
      const at = now();
      const seen = batch.progress?.phase;
      // The first phase seen is measured from the start (nothing done then); each later one from its first sight.
      if (seen !== undefined && phase !== undefined && seen !== phase) start = startOf(batch, at);
      phase = seen ?? phase;
      const line = progressLine(batch, start, at, tty ? 30 : undefined);
      if (tty) {
        stream.write(`\r${line}\x1b[K`);
        drawn = true;
      } else stream.write(`${new Date(at).toISOString()} ${batch.id} ${line}\n`);
    },
    end() {
      if (drawn) stream.write('\n');
    },
  };
}
