/**
 * `npx tsx scripts/model/cold-start-paths.ts <model folder> [runs]`: the two ways a model too big for a zip can
 * reach a Lambda, timed in fresh processes as an init pays them:
 * - image: the folder is part of the container image, read in place (session create + first request).
 * - tmp:   the folder is copied into a fresh directory first (the /tmp write half of an S3 -> /tmp download;
 *          the S3 transfer itself cannot be measured here: add size / throughput), then loaded the same way.
 * - image-no-pace: the image path without the pace warm-up pair (measurePaceAtLoad: false), so the difference
 *          to `image` is what measuring the pace at load adds to a cold start (its loadMs includes that pair).
 * Prints one JSON line per path with the median over `runs` (default 3); the runs of the paths alternate.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

const PROBE = `
const t0 = performance.now();
const { cp } = await import('node:fs/promises');
const [folder, copyTo, pace] = process.argv.slice(-3);
let source = folder;
if (copyTo !== '-') { await cp(folder, copyTo, { recursive: true }); source = copyTo; }
const t1 = performance.now();
const { loadFolderScorer } = await import('${path.resolve('shared/scoring/load-folder-scorer.ts')}');
const scorer = await loadFolderScorer({ id: 'probe', folder: source, threads: 2, measurePaceAtLoad: pace !== 'no-pace' });
const t2 = performance.now();
await scorer.score('what is the capital of france', Array.from({ length: 10 }, (_, i) => 'Document ' + i + ': Paris is the capital of France.'));
const t3 = performance.now();
console.log(JSON.stringify({ copyMs: t1 - t0, loadMs: t2 - t1, firstScoreMs: t3 - t2, totalMs: t3 - t0 }));
`;

const [folder, runsArg] = process.argv.slice(2);
if (folder === undefined) {
  console.error('usage: npx tsx scripts/model/cold-start-paths.ts <model folder> [runs]');
  process.exit(2);
}
const runs = Number(runsArg ?? 3);
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const MODES = ['image', 'image-no-pace', 'tmp'] as const;
const samples: Record<(typeof MODES)[number], Record<string, number>[]> = { image: [], 'image-no-pace': [], tmp: [] };
// Runs alternate between the paths, so a shared machine's load drifting during the measurement hits both alike.
for (let i = 0; i < runs; i++) {
  for (const mode of MODES) {
    const scratch = await mkdtemp(path.join(tmpdir(), 'cold-start-'));
    const target = mode === 'tmp' ? path.join(scratch, 'model') : '-';
    const pace = mode === 'image-no-pace' ? 'no-pace' : 'pace';
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', PROBE, folder, target, pace], {
      encoding: 'utf8',
    });
    samples[mode].push(JSON.parse(out.trim().split('\n').pop()!) as Record<string, number>);
    await rm(scratch, { recursive: true, force: true });
  }
}
for (const mode of MODES) {
  const keys = Object.keys(samples[mode][0]!);
  console.log(
    JSON.stringify({
      mode,
      folder,
      runs,
      ...Object.fromEntries(keys.map((k) => [k, Math.round(median(samples[mode].map((s) => s[k]!)))])),
    }),
  );
}
