import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The fields of train.py's training.json that say which design point a fine-tuned folder is. */
interface TrainingSummary {
  readonly mode?: string;
  readonly best_epoch?: number;
  readonly dev_mrr_before?: number;
  readonly dev_mrr_best?: number;
  readonly hyperparameters?: {
    readonly epochs?: number;
    readonly lr?: number;
    readonly body_lr?: number;
    readonly l2sp?: number;
    readonly seed?: number;
    readonly freeze_embeddings?: boolean;
    readonly residual?: number;
  };
}

/**
 * One line naming how the model in `folder` was fine-tuned, from its training.json, so that a report's candidate
 * table says which design point it measured (several are tried, each overwriting models/use-lite-tuned).
 * Undefined when the folder has no training.json.
 */
export function describeCandidateTraining(folder: string): string | undefined {
  const path = join(folder, 'training.json');
  if (!existsSync(path)) return undefined;
  const t = JSON.parse(readFileSync(path, 'utf8')) as TrainingSummary;
  const h = t.hyperparameters ?? {};
  const trained =
    t.mode === 'head'
      ? `the dense head only, lr ${h.lr}`
      : `every weight${h.freeze_embeddings === true ? ' but the token embeddings (frozen)' : ''}, head lr ${h.lr}, body lr ${h.body_lr}`;
  const dev =
    t.dev_mrr_before === undefined || t.dev_mrr_best === undefined
      ? ''
      : `, dev MRR@10 ${t.dev_mrr_before.toFixed(3)} -> ${t.dev_mrr_best.toFixed(3)}`;
  const objective = (h.residual ?? 0) > 0 ? `residual objective (bm25 logit + ${h.residual} x cosine)` : 'InfoNCE';
  return `mode ${t.mode}, ${objective}: ${trained}, L2-SP ${h.l2sp}, ${h.epochs} epochs (kept epoch ${t.best_epoch}${dev}), seed ${h.seed}`;
}
