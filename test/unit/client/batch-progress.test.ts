import { describe, expect, it } from 'vitest';
import type { RerankBatch } from '../../../shared/client/index.js';
import { progressLine, progressReporter } from '../../../scripts/ops/batch-cli/batch-progress.js';

const batch = (completed: number, failed: number, total: number): RerankBatch => ({
  id: 'batch_1',
  status: 'in_progress',
  endpoint: '/v1/rerank',
  input_file_id: 'file-1',
  request_counts: { total, completed, failed },
  created_at: 0,
});

describe('batch CLI progress', () => {
  it('says lines done, lines/s and the ETA; a terminal gets a bar', () => {
    expect(progressLine(batch(30, 10, 100), 0, 10_000)).toBe('40/100 lines (10 failed)  4.0 lines/s  ETA 15 s  in_progress');
    expect(progressLine(batch(50, 0, 100), 0, 5_000, 10)).toBe('[#####.....] 50/100 lines (0 failed)  10.0 lines/s  ETA 5 s  in_progress');
    expect(progressLine(batch(0, 0, 0), 0, 1_000)).toBe('0/0 lines (0 failed)  - lines/s  ETA -  in_progress');
  });

  it("shows the chunks done inside a line (the service's progress extension), and the bar and ETA follow them", () => {
    const running = { ...batch(0, 0, 1), progress: { fraction: 0.25, completed_chunks: 30, total_chunks: 120 } };
    expect(progressLine(running, 0, 10_000)).toBe('0/1 lines (0 failed)  30/120 chunks (25%)  2.5 %/s  ETA 30 s  in_progress');
    expect(progressLine(running, 0, 10_000, 8)).toBe(
      '[##......] 0/1 lines (0 failed)  30/120 chunks (25%)  2.5 %/s  ETA 30 s  in_progress',
    );
    expect(progressLine({ ...batch(400, 0, 1000), progress: { fraction: 0.4 } }, 0, 10_000)).toBe(
      '400/1000 lines (0 failed)  40%  40.0 lines/s  ETA 15 s  in_progress',
    );
  });

  it('while a corpus is first analysed, prints the phase, the documents, a measured documents/s (never 0.0) and the ETA at that rate', () => {
    const analysing = (analysed: number, fraction: number): RerankBatch => ({
      ...batch(0, 0, 5),
      progress: { fraction, phase: 'analysing_corpus', corpus_documents_analysed: analysed, corpus_documents: 20_000 },
    });
    const written: string[] = [];
    let nowMs = 0;
    const reporter = progressReporter({ isTTY: false, write: (line: string) => written.push(line) > 0 }, 0, () => nowMs);
    // Planned at 2 s (nothing analysed yet); then 1,000 documents every 10 s; then scoring, 5 lines in 2 s.
    nowMs = 2_000;
    reporter.update({ ...batch(0, 0, 5), progress: { fraction: 0, phase: 'scoring' } });
    nowMs = 12_000;
    reporter.update(analysing(1_000, 0.025));
    nowMs = 22_000;
    reporter.update(analysing(2_000, 0.05));
    nowMs = 400_000;
    reporter.update({
      ...batch(0, 0, 5),
      progress: { fraction: 0.5, phase: 'scoring', corpus_documents_analysed: 20_000, corpus_documents: 20_000 },
    });
    nowMs = 402_000;
    reporter.update({ ...batch(5, 0, 5), status: 'completed', progress: { fraction: 1 } });
    const lines = written.map((l) => l.slice(l.indexOf('batch_1 ') + 'batch_1 '.length).trimEnd());
    expect(lines[1]).toBe('analysing corpus (once per corpus and model): 1000/20000 documents (5%)  - documents/s  ETA -  in_progress');
    expect(lines[2]).toBe(
      'analysing corpus (once per corpus and model): 2000/20000 documents (10%)  100.0 documents/s  ETA 180 s  in_progress',
    );
    expect(lines[4]).toBe('5/5 lines (0 failed)  100%  2.5 lines/s  ETA -  completed');
  });
});
