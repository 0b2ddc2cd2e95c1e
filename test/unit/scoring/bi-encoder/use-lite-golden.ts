import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/** The converted model folder under test. */
export const USE_LITE_DIR = path.join(ROOT, 'models/use-lite');

export interface UseLiteGolden {
  readonly source: string;
  readonly maxAbsDiffBatchedVsAlone: number;
  /** Texts with the original's token ids and 512-d embedding. */
  readonly embed: ReadonlyArray<{ readonly name: string; readonly text: string; readonly ids: number[]; readonly embedding: number[] }>;
  /** Extra texts with the original's token ids only. */
  readonly tokenizer: ReadonlyArray<{ readonly text: string; readonly ids: number[] }>;
}

/** test/fixtures/use-lite/golden.json: outputs of the ORIGINAL TF.js model (scripts/model/convert-use/golden.ts). */
export function loadUseLiteGolden(): UseLiteGolden {
  return JSON.parse(readFileSync(path.join(ROOT, 'test/fixtures/use-lite/golden.json'), 'utf8')) as UseLiteGolden;
}

/** Cosine of two plain vectors in float64 (the reference side). */
export function cosine64(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  a.forEach((x, i) => {
    const y = b[i]!;
    dot += x * y;
    na += x * x;
    nb += y * y;
  });
  return dot / Math.sqrt(na * nb);
}
