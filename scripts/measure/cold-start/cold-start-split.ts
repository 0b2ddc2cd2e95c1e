import { median } from '../scoring/bench-stats.js';

/** The marker of the probe's one result line (cold-start-probe.mjs). */
export const PROBE_MARKER = 'COLD_START_PROBE ';

/** What one probe process reports: wall-clock marks (ms since the epoch) and the process's CPU ms at each. */
export interface ProbeMarks {
  readonly probeStart: number;
  readonly imported: number;
  readonly loaded: number;
  readonly answered: number;
  /** Process CPU ms (user + system, every thread) at probeStart, imported, loaded, answered. */
  readonly cpu: readonly [number, number, number, number];
  readonly status: number;
  /** [document index, relevance score] in the answer's order. */
  readonly scores: readonly (readonly [number, number])[];
}

/** The four phases of a cold start, in ms, and their total. */
export interface PhaseMs {
  /** Spawn to the probe's first line: Node's own start (with NODE_OPTIONS as deployed). */
  readonly nodeStart: number;
  /** The bundle's import: parsing and evaluating every module the function's code imports. */
  readonly bundleImport: number;
  /** The runtime's build: configuration, the model's files, tokenizer and ONNX sessions (and the pace, where measured at load). */
  readonly modelLoad: number;
  /** The handler's first invocation of a 10-document request, to its answer. */
  readonly firstRequest: number;
  readonly total: number;
}

export interface ColdStartSplit {
  readonly wall: PhaseMs;
  /** The same phases in CPU ms of the probe process (node start: the CPU it had used at the probe's first line). */
  readonly cpu: PhaseMs;
}

export const PHASES = ['nodeStart', 'bundleImport', 'modelLoad', 'firstRequest', 'total'] as const satisfies readonly (keyof PhaseMs)[];

const isFiniteNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** The probe's marks from its whole stdout (the handler logs before it); throws when the line is missing or malformed. */
export function parseProbeOutput(stdout: string): ProbeMarks {
  const line = stdout
    .split('\n')
    .reverse()
    .find((l) => l.startsWith(PROBE_MARKER));
  if (line === undefined) throw new Error(`the probe printed no ${PROBE_MARKER.trim()} line`);
  const marks = JSON.parse(line.slice(PROBE_MARKER.length)) as ProbeMarks;
  const wall = [marks.probeStart, marks.imported, marks.loaded, marks.answered];
  if (!wall.every(isFiniteNumber) || !Array.isArray(marks.cpu) || marks.cpu.length !== 4 || !marks.cpu.every(isFiniteNumber)) {
    throw new Error(`the probe's marks are malformed: ${line}`);
  }
  for (let i = 1; i < wall.length; i++) if (wall[i]! < wall[i - 1]!) throw new Error(`the probe's marks go backwards: ${line}`);
  return marks;
}

/** The phases of one probe run, `spawnedAt` being the parent's wall clock (ms since the epoch) just before the spawn. */
export function splitProbe(spawnedAt: number, marks: ProbeMarks): ColdStartSplit {
  const [c0, c1, c2, c3] = marks.cpu;
  return {
    wall: {
      nodeStart: marks.probeStart - spawnedAt,
      bundleImport: marks.imported - marks.probeStart,
      modelLoad: marks.loaded - marks.imported,
      firstRequest: marks.answered - marks.loaded,
      total: marks.answered - spawnedAt,
    },
    cpu: { nodeStart: c0, bundleImport: c1 - c0, modelLoad: c2 - c1, firstRequest: c3 - c2, total: c3 },
  };
}

const medianPhases = (runs: readonly PhaseMs[]): PhaseMs =>
  Object.fromEntries(PHASES.map((phase) => [phase, median(runs.map((r) => r[phase]))])) as unknown as PhaseMs;

/** Each phase's median over the runs (so the medians need not add up to the median total). */
export function medianSplit(runs: readonly ColdStartSplit[]): ColdStartSplit {
  if (runs.length === 0) throw new Error('no runs to take a median of');
  return { wall: medianPhases(runs.map((r) => r.wall)), cpu: medianPhases(runs.map((r) => r.cpu)) };
}

/** Largest absolute difference between two answers' scores, matched by document index (Infinity if the documents differ). */
export function maxScoreDifference(a: ProbeMarks['scores'], b: ProbeMarks['scores']): number {
  if (a.length !== b.length) return Number.POSITIVE_INFINITY;
  const byIndex = new Map(b.map(([index, score]) => [index, score]));
  let worst = 0;
  for (const [index, score] of a) {
    const other = byIndex.get(index);
    if (other === undefined) return Number.POSITIVE_INFINITY;
    worst = Math.max(worst, Math.abs(score - other));
  }
  return worst;
}
