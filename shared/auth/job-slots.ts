/**
 * Running jobs per key, as a counter. Adapters: DynamoDB (conditional ADD on SLOTS#<keyId>) and in-memory;
 * both pass test/contract/job-slots.contract.ts.
 *
 * The counter is not idempotent: call `release` exactly once per successful `acquire`, i.e. only when the
 * job's own transition to succeeded/failed/cancelled returned true (those transitions are conditional).
 */
export interface JobSlots {
  /** Takes a slot if fewer than `max` are taken; false when the key is at its limit. */
  acquire(keyId: string, max: number): Promise<boolean>;
  /** Gives a slot back; never goes below 0. */
  release(keyId: string): Promise<void>;
  /** Slots taken now (for tests, metrics and the CLI). */
  inUse(keyId: string): Promise<number>;
}
