/**
 * The faithfulness check beside the bench's own: the same recipe's int8 graph vs fp32 on the `-spread` copy of a
 * bench model (same shape and seed, random weights drawn with std 0.1 instead of BERT's 0.02; built by
 * `build-random-shapes.py --init-range 0.1`). With BERT's init every document scores within ~1e-2 of the others,
 * so int8 noise of that size reorders them; the spread copy's logits differ by whole units between documents,
 * as a trained reranker's do. A synthetic check, reported next to (never instead of) Spearman on the bench models.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { loadOnnxCrossEncoder } from '../../../shared/scoring/onnx-cross-encoder.js';
import type { BenchRequest } from './bench-documents.js';
import { BATCH, MODELS_DIR } from './bench-models.js';
import { rankAgreement, type RankAgreement } from './rank-correlation.js';

/** Folder suffix of the spread copies. */
export const SPREAD_SUFFIX = '-spread';

/** The spread copy's folder of a bench model, or undefined when it was not built. */
export function spreadCopyFolder(modelName: string): string | undefined {
  const folder = path.join(MODELS_DIR, `${modelName}${SPREAD_SUFFIX}`);
  return existsSync(path.join(folder, 'onnx', 'model.onnx')) ? folder : undefined;
}

/** Scores the request once per file with the service's scorer (plan for `threads`). */
export async function scoresOf(folder: string, files: readonly string[], threads: number, request: BenchRequest): Promise<number[][]> {
  const out: number[][] = [];
  for (const file of files) {
    const scorer = await loadOnnxCrossEncoder({ id: `${path.basename(folder)}:${file}`, folder, modelFile: file, threads, ...BATCH });
    try {
      out.push((await scorer.score(request.query, request.documents)).scores);
    } finally {
      await scorer.close();
    }
  }
  return out;
}

/** Agreement of each file with the spread copy's fp32 graph; undefined for files the copy lacks. */
export async function spreadCopyAgreement(
  modelName: string,
  files: readonly string[],
  threads: number,
  request: BenchRequest,
): Promise<(RankAgreement | undefined)[] | undefined> {
  const folder = spreadCopyFolder(modelName);
  if (folder === undefined) return undefined;
  const present = files.filter((f) => existsSync(path.join(folder, f)));
  const [reference, ...scores] = await scoresOf(folder, ['onnx/model.onnx', ...present], threads, request);
  return files.map((f) => {
    const i = present.indexOf(f);
    return i < 0 ? undefined : rankAgreement(reference!, scores[i]!);
  });
}
