import { forEachBounded } from '../core/for-each-bounded.js';
import type { BatchEngineDeps } from './batch-engine-deps.js';
import type { BatchRecord, BatchRequestPlan, BatchTask } from './batch-model.js';
import { CorpusLineGroups } from './corpus-line-groups.js';
import type { PlannedLine } from './plan-line.js';
import { QueuedPairs, failOverQueuedPairs } from './queued-pairs.js';

/** Request plans written at once before their tasks are sent (the SDK's 50 sockets leave room for the sends). */
export const PLAN_WRITES = 32;

/**
 * The lines planned since the last flush: their request plans, their chunk tasks, the open corpus groups and the key's
 * queued pairs. Plans are written together before their tasks are sent (a worker reads its line's plan), PLAN_WRITES at
 * a time: one write per line in turn held a 10,000-line batch's planning to its writes' latency. A round gathers
 * limits.planFlushTasks tasks: its sends go SENDS_IN_FLIGHT (sqs-task-queue.ts) at a time, so rounds of 64 left most idle.
 */
export class PlanRound {
  readonly #deps: BatchEngineDeps;
  readonly #batch: BatchRecord;
  // Lines over one stored corpus are scored a group at a time, one task per shard for the group.
  readonly #groups: CorpusLineGroups;
  // The key's queued pairs are reserved for the round's lines before their tasks are sent.
  readonly #queued: QueuedPairs;
  #pending: BatchTask[] = [];
  #plans: BatchRequestPlan[] = [];

  constructor(deps: BatchEngineDeps, batch: BatchRecord) {
    this.#deps = deps;
    this.#batch = batch;
    this.#groups = new CorpusLineGroups(batch.id);
    this.#queued = new QueuedPairs(deps, batch);
  }

  /** Pairs of every line planned so far (what the next checkpoint records). */
  get queuedPairs(): number {
    return this.#queued.total;
  }

  /** Enough gathered to write and send now. */
  get full(): boolean {
    const { planFlushTasks } = this.#deps.limits;
    return this.#pending.length >= planFlushTasks || this.#plans.length >= planFlushTasks;
  }

  get empty(): boolean {
    return this.#pending.length === 0 && this.#plans.length === 0;
  }

  add(line: number, planned: PlannedLine): void {
    this.#queued.add(line, planned.plan.candidates.count);
    this.#plans.push(planned.plan);
    this.#pending.push(...planned.tasks);
    if (planned.group) this.#pending.push(...this.#groups.add(planned.group.key, line, planned.group.spans, planned.group.maxLines));
  }

  async writePlans(): Promise<void> {
    await forEachBounded(this.#plans, PLAN_WRITES, (plan) => this.#deps.store.putRequest(this.#batch.id, plan));
    this.#plans = [];
  }

  /** Writes the round's plans and sends its tasks; false = the key's queued pairs refused it and the batch ended. */
  async flush(): Promise<boolean> {
    // Open groups go out with this round: everything recorded before a checkpoint has its tasks sent.
    this.#pending.push(...this.#groups.drain());
    await this.writePlans();
    const refused = await this.#queued.reserve();
    if (refused) await failOverQueuedPairs(this.#deps, this.#batch, refused);
    else if (this.#pending.length > 0) await this.#deps.queue.send(this.#pending, { tenant: this.#batch.ownerKeyId });
    this.#pending = [];
    return refused === undefined;
  }
}
