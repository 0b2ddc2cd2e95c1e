/**
 * What a job or a batch brings to acceptWork. Each step is the work's own (its record, its tasks, its hold); the order
 * and the recovery between them are acceptWork's, the same for both.
 */
export interface AcceptSteps<W> {
  /** The work this Idempotency-Key's first create made, answered again (undefined: none, or no key); 422 if the key was used for another request. */
  replay(): Promise<W | undefined>;
  /** Checks what the request names (a batch's input file) before anything is taken. */
  admit?(): Promise<void>;
  /** Takes the owner's running hold, named by the work's id; false when nothing was taken (no limit, or a racing retry holds it). */
  hold(): Promise<boolean>;
  /** Gives back a hold this create took: its record was never stored. */
  release(): Promise<void>;
  /** Stores the work's record; an AlreadyExistsError when its id is taken. */
  store(): Promise<void>;
  /**
   * The store refused or failed: the work to answer instead (a racing retry with the same key stored it first), `'ours'`
   * when the record is this create's own (its write applied, the answer lost) so its tasks must still be queued - or a
   * throw, which is the caller's answer.
   */
  stored(error: unknown): Promise<W | 'ours'>;
  /** Queues the work's first tasks (its owner is their tenant). */
  enqueue(): Promise<void>;
  /** Its first tasks could not be queued: accepted work always ends, so it ends failed now, saying so, and is answered. */
  unqueued(error: unknown): Promise<W>;
  /** The accepted work as its owner sees it. */
  accepted(): Promise<W>;
}

/**
 * The async engine's way of taking on work, jobs and batches alike: answer a retry with the first create's work; check
 * what the request names; take one of the owner's running holds (atomically, named by the work, so parallel creates
 * cannot pass the limit and a retry racing its first create counts once); store the record; queue its first tasks.
 * A hold is given back only when this create took it and the create is refused (no record of this work holds it).
 */
export async function acceptWork<W>(steps: AcceptSteps<W>): Promise<W> {
  const first = await steps.replay();
  if (first !== undefined) return first;
  await steps.admit?.();
  const held = await steps.hold();
  try {
    await steps.store();
  } catch (error) {
    let instead: W | 'ours';
    try {
      instead = await steps.stored(error);
    } catch (answer) {
      // No record of this work holds the hold this create took (a racing retry's record would have been answered, and
      // a record still running holds it already, so this create took nothing): give it back.
      if (held) await steps.release();
      throw answer;
    }
    if (instead !== 'ours') return instead;
  }
  try {
    await steps.enqueue();
  } catch (error) {
    return steps.unqueued(error);
  }
  return steps.accepted();
}
