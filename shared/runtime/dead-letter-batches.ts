import type { BatchEngine } from '../batches/batch-engine.js';
import type { BatchTask } from '../batches/batch-model.js';
import type { ServiceConfig } from '../config/service-config.js';
import type { DeadLetterRunner } from '../engine/run-task.js';
import { apiLimitsOf } from './api-limits.js';
import type { BatchRuntime } from './batch-runtime.js';
import { batchEngineOver, type BatchModels } from './create-batch-engine.js';

/** A task reached a model on the engine that has none: it is run again on the engine with every model loaded. */
export class ModelsNotLoadedError extends Error {
  constructor(what: string) {
    super(`the dead-letter consumer's storage engine loads no model (${what})`);
    this.name = 'ModelsNotLoadedError';
  }
}

const notLoaded = (what: string) => (): never => {
  throw new ModelsNotLoadedError(what);
};

/**
 * The models of an engine that has none. Failing a plan's, a finalize's or an unrecorded chunk's batch work touches no
 * model; finishing a chunk recorded after all does (its line is admitted again, then scored results are fused), and
 * that reaches one of these first: admission resolves the line's model before anything is written for it.
 */
const NO_MODELS: BatchModels = {
  scorerFor: notLoaded('scorer'),
  fuserFor: notLoaded('fuser'),
  setFusionFor: notLoaded('set fusion'),
  service: { resolveScorer: notLoaded('model resolution') },
};

/**
 * The batch dead-letter recovery over the storage ports alone: a plan's, a finalize's or an unrecorded chunk's task
 * ends its batch work without a model. A chunk recorded after all needs the models to finish its lines; that task
 * runs again on `whole` (built, models and all, only then). Running it twice is safe: the recovery is idempotent (a
 * line keeps its first result), which the redelivery of a dead-lettered message already relies on.
 */
export function deadLetterBatchesOver(
  config: ServiceConfig,
  batches: BatchRuntime | undefined,
  whole: () => Promise<DeadLetterRunner<BatchTask>>,
): DeadLetterRunner<BatchTask> {
  const { limits, plan } = apiLimitsOf(config);
  const storage: BatchEngine | undefined = batchEngineOver({ config, batches, files: batches?.files }, NO_MODELS, limits, plan);
  if (!storage)
    throw new Error('batch dead-letter consumer: no batch store or files (RERANK_BATCH_QUEUE_URL and RERANK_FILES_BUCKET unset)');
  return {
    async taskDeadLettered(task, reason) {
      try {
        await storage.taskDeadLettered(task, reason);
      } catch (error) {
        if (!(error instanceof ModelsNotLoadedError)) throw error;
        await (await whole()).taskDeadLettered(task, reason);
      }
    },
  };
}
