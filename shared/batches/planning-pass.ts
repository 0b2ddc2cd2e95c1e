import { logger } from '../observability/logger.js';
import type { BatchEngineDeps } from './batch-engine-deps.js';
import { nowSeconds } from './batch-engine-deps.js';
import type { BatchRecord } from './batch-model.js';
import { failedLine } from './batch-output-lines.js';
import { failValidation } from './fail-validation.js';
import { isBlankLine, type JsonlLine } from './jsonl-lines.js';
import { keepResult } from './keep-result.js';
import { planLine, type LinePlanning } from './plan-line.js';
import { PlanRound } from './plan-round.js';

/** The batch's status is re-read this often, so a cancel stops planning soon. */
const CHECK_STATUS_EVERY_LINES = 256;

/**
 * How a planning run ended: the whole file is planned; it stopped (cancelled, expired or failed while validating);
 * or its slice of time ran out, and it queued the next plan task, which resumes at its checkpoint.
 */
export type PlanningOutcome = 'planned' | 'stopped' | 'continued';

/** One plan task's walk over the input from its checkpoint: lines in, rounds written and sent, checkpoints recorded. */
export class PlanningPass {
  readonly #deps: BatchEngineDeps;
  readonly #batch: BatchRecord;
  readonly #lines: LinePlanning;
  readonly #sliceEnds: number;
  readonly #round: PlanRound;
  #total: number;

  constructor(deps: BatchEngineDeps, batch: BatchRecord, lines: LinePlanning, sliceEnds: number) {
    this.#deps = deps;
    this.#batch = batch;
    this.#lines = lines;
    this.#sliceEnds = sliceEnds;
    this.#round = new PlanRound(deps, batch);
    this.#total = batch.planCheckpoint?.total ?? 0;
  }

  /** One line of the input; an outcome when planning ends at it, undefined to go on. */
  async take(line: JsonlLine): Promise<PlanningOutcome | undefined> {
    const { limits, store } = this.#deps;
    // Every line counts here, blank and too-long ones too (line numbers are file-global): 100 MiB of empty lines
    // once skipped the limit, the cancel check and the slice's end, and planned for 132 s.
    if (line.line > limits.maxLinesPerBatch) {
      const message = `the input file has more than ${limits.maxLinesPerBatch} lines (blank ones included), the limit per batch`;
      await failValidation(this.#deps, this.#batch, 'too_many_lines', message, line.line);
      return 'stopped';
    }
    const checkpointLine = line.line % CHECK_STATUS_EVERY_LINES === 0;
    if (checkpointLine && (await store.get(this.#batch.id))?.status !== 'validating') {
      // Cancelled or expired: the lines planned so far are recorded (the finalizer writes them as not run), none sent.
      await this.#round.writePlans();
      return 'stopped';
    }
    await this.#record(line);
    if (this.#round.full || (checkpointLine && performance.now() >= this.#sliceEnds)) return this.#checkpoint(line);
    return undefined;
  }

  async #record(line: JsonlLine): Promise<void> {
    if (line.tooLong) {
      this.#total++;
      const error = { code: 'line_too_long', message: `the line is longer than ${this.#deps.limits.maxLineBytes} bytes` };
      await keepResult(this.#deps, this.#batch, failedLine(line.line, undefined, error));
    } else if (!isBlankLine(line.bytes)) {
      this.#total++;
      const planned = await planLine(this.#deps, this.#batch, line, this.#lines);
      if (planned) this.#round.add(line.line, planned);
    }
  }

  /** Everything up to this line is recorded and sent: a later failure resumes after it (and a cancel stops here). */
  async #checkpoint(line: JsonlLine): Promise<PlanningOutcome | undefined> {
    const batch = this.#batch;
    if (!(await this.#round.flush())) return 'stopped';
    const checkpoint = { nextByte: line.range.end + 1, nextLine: line.line + 1, total: this.#total, queuedPairs: this.#round.queuedPairs };
    if ((await this.#deps.store.update(batch.id, ['validating'], { planCheckpoint: checkpoint, total: this.#total })) === undefined)
      return 'stopped';
    if (performance.now() < this.#sliceEnds) return undefined;
    // Out of time: the next plan task resumes at this checkpoint. Sent after the checkpoint is written, so a
    // failed send retries this task from the same place (a duplicate plan task re-plans lines idempotently).
    await this.#deps.queue.send([{ kind: 'plan', batchId: batch.id }], { tenant: batch.ownerKeyId });
    logger.info('batch planning continues in the next task', { batchId: batch.id, nextLine: checkpoint.nextLine });
    return 'continued';
  }

  /** The input's end: the last round out, and the batch `in_progress` with its total. */
  async end(): Promise<PlanningOutcome> {
    if (!this.#round.empty && !(await this.#round.flush())) return 'stopped';
    const now = nowSeconds(this.#deps);
    const update = { status: 'in_progress' as const, inProgressAt: now, total: this.#total, planned: true };
    const started = await this.#deps.store.update(this.#batch.id, ['validating'], update);
    logger.info('batch planned', { batchId: this.#batch.id, requests: this.#total });
    return started === undefined ? 'stopped' : 'planned';
  }
}
