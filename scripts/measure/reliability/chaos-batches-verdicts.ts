import { isDeepStrictEqual } from 'node:util';
import { isTerminal } from '../../../shared/batches/batch-model.js';
import { POISON, responseOf, type Line } from './chaos-batch-lines.js';
import type { BatchesLaneResult, BatchResult } from './chaos-batches-lane.js';

export interface BatchVerdict {
  readonly id: string;
  readonly status: string;
  readonly lines: number;
  readonly completed: number;
  readonly failed: number;
  readonly lost: number;
  readonly duplicated: number;
  /** Completed lines whose response differs from the fault-free run's. */
  readonly differing: number;
  readonly violation: string | undefined;
}

export interface BatchesLaneReport extends BatchesLaneResult {
  readonly verdicts: readonly BatchVerdict[];
  readonly quotaLimit: Readonly<Record<'running_batches' | 'stored_bytes', number>>;
  readonly violations: readonly string[];
}

const customId = (line: string) => (JSON.parse(line) as { custom_id: string }).custom_id;

/** Every line once in the output or the error file, completed ones equal to the reference, only poison lines failed. */
function batchVerdict(b: BatchResult, reference: ReadonlyMap<string, unknown>): BatchVerdict {
  const seen = new Map<string, number>();
  for (const l of [...b.output, ...b.errors]) seen.set(l.custom_id, (seen.get(l.custom_id) ?? 0) + 1);
  const expected = b.lines.map(customId);
  const lost = expected.filter((id) => !seen.has(id)).length;
  const duplicated =
    [...seen.values()].reduce((a, n) => a + Math.max(0, n - 1), 0) + [...seen.keys()].filter((id) => !expected.includes(id)).length;
  const differing = b.output.filter((l: Line) => !isDeepStrictEqual(responseOf(l), reference.get(l.custom_id))).length;
  const poisoned = b.lines.filter((l) => (JSON.parse(l) as { body: { query: string } }).body.query === POISON).map(customId);
  const failedIds = b.errors.map((l) => l.custom_id).sort();
  let violation: string | undefined;
  if (!isTerminal(b.status as never)) violation = `did not end: ${b.status}`;
  else if (b.status !== 'completed') violation = `ended ${b.status} (${b.errorCodes}), not completed`;
  else if (lost > 0 || duplicated > 0) violation = `${lost} lines lost, ${duplicated} duplicated`;
  else if (differing > 0) violation = `${differing} completed lines differ from the fault-free run`;
  else if (!isDeepStrictEqual(failedIds, poisoned.sort()))
    violation = `error file holds ${JSON.stringify(failedIds)}, expected the poison lines ${JSON.stringify(poisoned)}`;
  const { id, status } = b;
  return { id, status, lines: b.lines.length, completed: b.output.length, failed: b.errors.length, lost, duplicated, differing, violation };
}

/**
 * The batches lane checked against a fault-free run of the same batches: every batch ends completed; every input line
 * is in the output or the error file exactly once; completed lines equal the fault-free run's; only the poison lines
 * fail; the key's ledger never passes its limits, and after the end holds no running batch and exactly the bytes and
 * files the batches' output and error files hold; a file never has two writers at once.
 */
export function batchesVerdicts(clean: BatchesLaneResult, chaos: BatchesLaneResult, batches: number): BatchesLaneReport {
  const reference = new Map(clean.batches.flatMap((b) => b.output.map((l) => [l.custom_id, responseOf(l)] as const)));
  const cleanBytes = clean.filesAfter.bytes;
  const quotaLimit = { running_batches: batches, stored_bytes: storedBytesLimit(clean) };
  const verdicts = chaos.batches.map((b) => batchVerdict(b, reference));
  const violations = verdicts.filter((v) => v.violation).map((v) => `${v.id}: ${v.violation}`);
  if (chaos.quotaMax.running_batches > quotaLimit.running_batches)
    violations.push(`running_batches reached ${chaos.quotaMax.running_batches} > ${quotaLimit.running_batches}`);
  // Line charges are checked against the limit atomically; a finalizer then gives a batch's output its file holds before
  // it releases the line holds (shared/batches/batch-quota.ts: over-counting for a moment, never under), so the counter
  // may show the batches' output twice while they end - at most the outputs once more, never stored bytes past the quota.
  if (chaos.quotaMax.stored_bytes > quotaLimit.stored_bytes + cleanBytes) {
    violations.push(
      `stored_bytes reached ${chaos.quotaMax.stored_bytes} > ${quotaLimit.stored_bytes} + ${cleanBytes} (the outputs counted twice while finalizers move them)`,
    );
  }
  // One finalizer at a time per batch (the lease): a file is never written by two at once.
  if (chaos.writes.maxConcurrent > 1) violations.push(`a batch's output or error file had ${chaos.writes.maxConcurrent} writers at once`);
  const { quotaAfter, filesAfter } = chaos;
  if (quotaAfter.running_batches !== 0) violations.push(`after the end the key still holds ${quotaAfter.running_batches} running batches`);
  if (quotaAfter.stored_bytes !== filesAfter.bytes)
    violations.push(`after the end the ledger holds ${quotaAfter.stored_bytes} stored bytes, the files ${filesAfter.bytes}`);
  if (quotaAfter.files !== filesAfter.count)
    violations.push(`after the end the ledger holds ${quotaAfter.files} files, the batches have ${filesAfter.count}`);
  return { ...chaos, verdicts, quotaLimit, violations };
}

/**
 * Room for every output once, plus one batch's worth twice: while a finalizer hands its lines' bytes to its files, both
 * count for a moment (transferToFiles), which the limit must allow without failing a batch that fits.
 */
export const storedBytesLimit = (clean: BatchesLaneResult): number => Math.ceil(clean.filesAfter.bytes * 2);
