import { relative, resolve } from 'node:path';

/** The served default's fusion, rewritten by `fit-default-fusion.ts --write`. */
export const SERVED_FUSION_FILE = 'shared/scoring/hybrid/use-lite-fusion.ts';

/**
 * Model folders that are committed as they are and must never gain a file from a fit: models/use-lite is the
 * faithful conversion its golden test checks, and its fusion is served from SERVED_FUSION_FILE, not from the folder.
 */
const COMMITTED_MODEL_FOLDERS = ['models/use-lite'];

export interface FusionFitTarget {
  /** 'served': the TypeScript module the default model reads; 'file': a fusion.json beside or apart from the model. */
  readonly kind: 'served' | 'file';
  readonly path: string;
}

/**
 * Where fit-default-fusion.ts writes its fit: --write serves it; --fit-out names a JSON file; otherwise the
 * model folder's fusion.json (the eval's candidate row reads it there), refused for a committed folder so a
 * refit of today's default never leaves a stray file in models/use-lite.
 */
export function fusionFitTarget(options: {
  readonly root: string;
  readonly modelFolder: string;
  readonly fitOut?: string;
  readonly write: boolean;
}): FusionFitTarget {
  const { root, modelFolder, fitOut, write } = options;
  if (write && fitOut !== undefined) throw new Error('--write and --fit-out both name where the fit goes: give one');
  if (write) return { kind: 'served', path: resolve(root, SERVED_FUSION_FILE) };
  if (fitOut !== undefined) return { kind: 'file', path: resolve(root, fitOut) };
  const folder = relative(root, resolve(root, modelFolder));
  if (COMMITTED_MODEL_FOLDERS.includes(folder)) {
    throw new Error(`${folder} is committed as it is: write the fit elsewhere with --fit-out <file.json>, or serve it with --write`);
  }
  return { kind: 'file', path: resolve(root, modelFolder, 'fusion.json') };
}
