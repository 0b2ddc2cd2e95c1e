import { describe, expect, it } from 'vitest';
import type { RerankBatch } from '../../../shared/client/index.js';
import { progressLine } from '../../../scripts/ops/batch-cli/batch-progress.js';

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
    expect(progressLine(batch(0, 0, 0), 0, 1_000)).toBe('0/0 lines (0 failed)  0.0 lines/s  ETA -  in_progress');
  });

  it("shows the chunks done inside a line (the service's progress extension), and the bar and ETA follow them", () => {
    const running = { ...batch(0, 0, 1), progress: { fraction: 0.25, completed_chunks: 30, total_chunks: 120 } };
    expect(progressLine(running, 0, 10_000)).toBe('0/1 lines (0 failed)  30/120 chunks (25%)  0.0 lines/s  ETA 30 s  in_progress');
    expect(progressLine(running, 0, 10_000, 8)).toBe(
      '[##......] 0/1 lines (0 failed)  30/120 chunks (25%)  0.0 lines/s  ETA 30 s  in_progress',
    );
    expect(progressLine({ ...batch(400, 0, 1000), progress: { fraction: 0.4 } }, 0, 10_000)).toBe(
      '400/1000 lines (0 failed)  40%  40.0 lines/s  ETA 15 s  in_progress',
    );
  });
});
