import type { BatchEngineDeps } from './batch-engine-deps.js';
import type { BatchRecord } from './batch-model.js';
import { customIdsBefore } from './custom-id-lines.js';
import { failValidation } from './fail-validation.js';
import { readJsonlLines } from './jsonl-lines.js';
import { PlanningPass, type PlanningOutcome } from './planning-pass.js';

/**
 * The planner: streams the input file once, admits each line with the route's own admission, records each
 * request and sends chunk tasks that carry references (line number; corpus byte ranges), never documents.
 * Bad lines become error-file lines naming the line. Runs after create has answered.
 */
export class BatchPlanner {
  readonly #deps: BatchEngineDeps;

  constructor(deps: BatchEngineDeps) {
    this.#deps = deps;
  }

  /**
   * Plans the batch from its checkpoint for at most `limits.planSliceSeconds`, then hands over to a fresh plan task
   * (checkpointed first): one invocation never plans a whole 200 MB input, so none runs into the worker's timeout.
   */
  async plan(batch: BatchRecord): Promise<PlanningOutcome> {
    const { files, limits } = this.#deps;
    const sliceEnds = performance.now() + limits.planSliceSeconds * 1000;
    const input = await files.get(batch.inputFileId);
    if (!input || input.version !== batch.inputFileVersion) {
      const message = `input file ${batch.inputFileId} is gone or was replaced since the batch was created`;
      await failValidation(this.#deps, batch, 'file_not_found', message);
      return 'stopped';
    }
    // A run after a failure resumes at the checkpoint: the lines before it are recorded and their tasks sent.
    const from = batch.planCheckpoint;
    const customIds = await customIdsBefore(this.#deps.store, batch.id, from?.nextLine);
    const pass = new PlanningPass(this.#deps, batch, { corpora: new Map(), customIds, analyses: new Set() }, sliceEnds);
    const start = from === undefined ? undefined : Math.min(from.nextByte, input.bytes);
    const source = start === undefined ? files.read(batch.inputFileId) : files.read(batch.inputFileId, { start, end: input.bytes });
    const reading = { maxLineBytes: limits.maxLineBytes, ...(start === undefined ? {} : { startByte: start, firstLine: from?.nextLine }) };
    for await (const line of readJsonlLines(source, reading)) {
      const outcome = await pass.take(line);
      if (outcome !== undefined) return outcome;
    }
    return pass.end();
  }
}
