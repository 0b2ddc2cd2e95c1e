import { describe, expect, it } from 'vitest';
import { parseCpuInfo, type BenchMachine } from '../../../scripts/measure/cold-start/bench-machine.js';
import { avx2Note, renderColdStartReport, type CellResult } from '../../../scripts/measure/cold-start/cold-start-report.js';
import {
  maxScoreDifference,
  medianSplit,
  parseProbeOutput,
  PROBE_MARKER,
  splitProbe,
  type ColdStartSplit,
  type ProbeMarks,
} from '../../../scripts/measure/cold-start/cold-start-split.js';

const marks: ProbeMarks = {
  probeStart: 1_000_100,
  imported: 1_000_400,
  loaded: 1_001_000,
  answered: 1_001_090,
  cpu: [80, 330, 900, 985],
  status: 200,
  scores: [
    [1, 0.9],
    [0, 0.5],
  ],
};

describe('parseProbeOutput', () => {
  it('reads the marked line after the handler logs', () => {
    const stdout = `{"level":"INFO","message":"request"}\n${PROBE_MARKER}${JSON.stringify(marks)}\n`;
    expect(parseProbeOutput(stdout)).toEqual(marks);
  });

  it('refuses output without the line, with missing figures, or with marks out of order', () => {
    expect(() => parseProbeOutput('{"level":"ERROR"}\n')).toThrow(/no COLD_START_PROBE line/);
    expect(() => parseProbeOutput(`${PROBE_MARKER}${JSON.stringify({ ...marks, cpu: [1, 2] })}`)).toThrow(/malformed/);
    expect(() => parseProbeOutput(`${PROBE_MARKER}${JSON.stringify({ ...marks, loaded: 1_000_300 })}`)).toThrow(/backwards/);
  });
});

describe('splitProbe', () => {
  it('splits wall time from the spawn and CPU time from the process start into four phases', () => {
    const split = splitProbe(1_000_000, marks);
    expect(split.wall).toEqual({ nodeStart: 100, bundleImport: 300, modelLoad: 600, firstRequest: 90, total: 1090 });
    expect(split.cpu).toEqual({ nodeStart: 80, bundleImport: 250, modelLoad: 570, firstRequest: 85, total: 985 });
  });
});

describe('medianSplit', () => {
  it('takes each phase median on its own', () => {
    const run = (total: number, load: number): ColdStartSplit => {
      const phases = { nodeStart: 10, bundleImport: 20, modelLoad: load, firstRequest: 5, total };
      return { wall: phases, cpu: phases };
    };
    const m = medianSplit([run(100, 60), run(300, 40), run(200, 90)]);
    expect(m.wall.total).toBe(200);
    expect(m.wall.modelLoad).toBe(60);
    expect(() => medianSplit([])).toThrow();
  });
});

describe('maxScoreDifference', () => {
  it('matches documents by index, whatever the order', () => {
    expect(
      maxScoreDifference(marks.scores, [
        [0, 0.5],
        [1, 0.875],
      ]),
    ).toBeCloseTo(0.025, 12);
    expect(maxScoreDifference(marks.scores, [[0, 0.5]])).toBe(Number.POSITIVE_INFINITY);
  });
});

const machine = (flags: string): BenchMachine => ({ ...parseCpuInfo(`model name\t: Test CPU\nflags\t\t: fpu ${flags}\n`), cpus: 2 });

describe('report', () => {
  it('says the AVX2 forms do not apply on an AVX-512 CPU, and apply on an AVX2-only one', () => {
    expect(machine('avx2 avx512f').flags).toMatchObject({ avx2: true, avx512f: true, amx_tile: false });
    expect(avx2Note(machine('avx2 avx512f'))).toMatch(/cannot be measured on it/);
    expect(avx2Note(machine('avx2'))).toMatch(/can add its AVX2 rows/);
  });

  it('has a row per cell with the phases and the ratio to the baseline', () => {
    const split = splitProbe(1_000_000, marks);
    const cells: CellResult[] = [
      {
        shape: 's',
        label: 'Shape S',
        threads: 1,
        build: 'change',
        runs: 3,
        median: split,
        vsBaseline: { wall: 0.8, cpu: 0.75, maxScoreDifference: 0 },
      },
      { shape: 's', label: 'Shape S', threads: 1, build: 'baseline', runs: 3, median: split },
    ];
    const text = renderColdStartReport({
      date: '2026-11-28T00:00:00Z',
      machine: machine('avx2 avx512f'),
      node: 'Node v24',
      nodeOptions: '--enable-source-maps',
      uptimeBefore: 'load average: 1.00',
      uptimeAfter: 'load average: 2.00',
      change: 'abc',
      baseline: 'def',
      cells,
      missing: [{ label: 'Big shape', build: 'build it' }],
    });
    expect(text).toContain('| Shape S | 1 | change | 100 | 300 | 600 | 90 | **1090** | 985 | 0.80x wall, 0.75x CPU, max Δscore 0.0e+0 |');
    expect(text).toContain('| Shape S | 1 | baseline | 80 | 250 | 570 | 85 | **985** |');
    expect(text).toContain('Big shape: its folder is not built (build it)');
    expect(text).toContain('load average: 2.00');
    expect(text).toContain('NODE_OPTIONS=`--enable-source-maps` as deployed');
    // A change to what the stack sets is named with the baseline's own setting.
    const changed = renderColdStartReport({
      date: '2026-11-28T00:00:00Z',
      machine: machine('avx2'),
      node: 'Node v24',
      nodeOptions: '',
      baselineNodeOptions: '--enable-source-maps',
      uptimeBefore: 'load average: 1.00',
      uptimeAfter: 'load average: 2.00',
      change: 'abc',
      baseline: 'def',
      cells,
      missing: [],
    });
    expect(changed).toContain('no NODE_OPTIONS, the baseline NODE_OPTIONS=`--enable-source-maps` as deployed');
  });
});
