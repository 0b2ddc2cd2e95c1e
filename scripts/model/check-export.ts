/**
 * `npx tsx scripts/model/check-export.ts <model folder> <family fixture name>`: scores the family's golden cases
 * (test/fixtures/model-families/<name>.json) with the folder through our scorer and fails above 1e-4. Used to
 * prove scripts/model/export-onnx.py on the fixtures' PyTorch checkpoints (models/.build/<name>-torch).
 */
import { readFileSync } from 'node:fs';
import { loadFolderScorer } from '../../shared/scoring/load-folder-scorer.js';

const [folder, name] = process.argv.slice(2);
if (folder === undefined || name === undefined) {
  console.error('usage: npx tsx scripts/model/check-export.ts <model folder> <family fixture name>');
  process.exit(2);
}
interface Case {
  readonly name: string;
  readonly query: string;
  readonly document: string;
  readonly instruction?: string | null;
  readonly score: number;
}
const golden = JSON.parse(readFileSync(`test/fixtures/model-families/${name}.json`, 'utf8')) as { cases: Case[] };
const scorer = await loadFolderScorer({ id: name, folder, threads: 1 });
let worst = 0;
for (const c of golden.cases) {
  const { scores } = await scorer.score(c.query, [c.document], { instruction: c.instruction ?? undefined });
  worst = Math.max(worst, Math.abs(1 / (1 + Math.exp(-scores[0]!)) - c.score));
}
await scorer.close?.();
console.log(`${folder}: ${golden.cases.length} golden cases of ${name}, max |score - Python| = ${worst.toExponential(2)}`);
process.exitCode = worst < 1e-4 ? 0 : 1;
