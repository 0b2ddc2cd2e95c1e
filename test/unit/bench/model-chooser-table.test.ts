import { describe, expect, it } from 'vitest';
import { chooserTable, costPerThousand } from '../../../scripts/measure/scoring/model-chooser-report.js';
import type { ChooserRun } from '../../../scripts/measure/scoring/model-chooser-shapes.js';

const run: ChooserRun = {
  date: '2026-11-28T18:20:00.000Z',
  machine: {
    cpuModel: 'test CPU',
    cpus: 2,
    flags: { avx2: true, avx512f: false, avx512_vnni: false, avx512_bf16: false, amx_tile: false, amx_int8: false, amx_bf16: false },
  },
  load: [{ threads: 1, start: 0.1, end: 0.2 }],
  rows: [10, 50, 100].flatMap((documents) => [
    { shape: 'minilm-l6-int8', threads: 1, documents, samples: 5, wallP50Ms: documents * 20, cpuP50Ms: documents * 20 },
    { shape: 'minilm-l6-int8', threads: 2, documents, samples: 5, wallP50Ms: documents * 12, cpuP50Ms: documents * 22 },
  ]),
};

describe('model chooser table', () => {
  it('prices a query as Lambda x86_64 GB-seconds of its p50 plus the invocation and the HTTP API request', () => {
    // 1 s at 1,769 MB: 1.7275 GB-s x $0.0000166667 + $0.0000002 + $0.000001, times 1,000.
    expect(costPerThousand(1000, 1)).toBeCloseTo(1000 * (1.7275390625 * 0.0000166667 + 0.0000012), 9);
    expect(costPerThousand(500, 2)).toBeCloseTo(costPerThousand(1000, 1), 9);
  });

  it('has one row per measured shape, with both vCPU counts and the cheaper monthly figure', () => {
    const table = chooserTable(run).split('\n');
    expect(table).toHaveLength(3);
    const row = table[2]!;
    expect(row).toContain('`cross-encoder/ms-marco-MiniLM-L-6-v2` `:quantized`');
    expect(row).toContain('| 200 / 1000 / 2000 | 120 / 600 / 1200 |');
    const oneVcpu = costPerThousand(1000, 1);
    const twoVcpus = costPerThousand(600, 2);
    expect(row).toContain(`$${((Math.min(oneVcpu, twoVcpus) * 100_000) / 1000).toFixed(2)} |`);
  });

  it('leaves out shapes that were not measured and marks a missing vCPU count', () => {
    const oneCount: ChooserRun = { ...run, rows: run.rows.filter((r) => r.threads === 1) };
    const table = chooserTable(oneCount);
    expect(table).not.toContain('TinyBERT');
    expect(table).toContain('| n/a / n/a / n/a |');
  });
});
