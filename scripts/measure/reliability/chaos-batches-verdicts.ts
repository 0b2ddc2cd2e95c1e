import { isDeepStrictEqual } from 'node:util';
import { isTerminal } from '../../../shared/batches/batch-model.js';
import { ENDING_EXPECTED, quotaCaseLimit } from './chaos-batch-endings.js';
import { POISON, responseOf, type BatchEndingCase, type BatchesWork, type Line } from './chaos-batch-lines.js';
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
  /** Output / error files listed under the batch's names (one each at most, the ones its record names). */
  readonly outputFiles: number;
  readonly errorFiles: number;
  readonly violation: string | undefined;
}

export interface BatchesLaneReport extends BatchesLaneResult {
  readonly ending: BatchEndingCase;
  readonly verdicts: readonly BatchVerdict[];
  readonly quotaLimit: Readonly<Record<'running_batches' | 'stored_bytes', number>>;
  readonly violations: readonly string[];
}

const customId = (line: string) => (JSON.parse(line) as { custom_id: string }).custom_id;
const errorCode = (line: Line) => (line.error as { code?: string } | null)?.code;

/** Its status and key error as the case ends it; then every line once, completed ones equal to the reference. */
function batchVerdict(b: BatchResult, reference: ReadonlyMap<string, unknown>, ending: BatchEndingCase): BatchVerdict {
  const seen = new Map<string, number>();
  for (const l of [...b.output, ...b.errors]) seen.set(l.custom_id, (seen.get(l.custom_id) ?? 0) + 1);
  const expected = b.lines.map(customId);
  const lost = expected.filter((id) => !seen.has(id)).length;
  const duplicated =
    [...seen.values()].reduce((a, n) => a + Math.max(0, n - 1), 0) + [...seen.keys()].filter((id) => !expected.includes(id)).length;
  const differing = b.output.filter((l: Line) => !isDeepStrictEqual(responseOf(l), reference.get(l.custom_id))).length;
  const poisoned = b.lines.filter((l) => (JSON.parse(l) as { body: { query: string } }).body.query === POISON).map(customId);
  const want = ENDING_EXPECTED[ending];
  // Lines a batch ended by quota or expiry did not run are in its error file under the ending's code; poison lines fail.
  const unexpectedErrors = b.errors
    .filter((l) => !poisoned.includes(l.custom_id) && errorCode(l) !== want.unfinished)
    .map((l) => l.custom_id);
  const missingPoison = ending === 'completed' ? poisoned.filter((id) => !b.errors.some((l) => l.custom_id === id)) : [];
  let violation: string | undefined;
  if (!isTerminal(b.status as never)) violation = `did not end: ${b.status}`;
  else if (b.status !== want.status || (want.batchError !== undefined && !b.errorCodes.includes(want.batchError)))
    violation = `ended ${b.status} (${b.errorCodes}), not ${want.status}${want.batchError ? ` (${want.batchError})` : ''}`;
  else if (lost > 0 || duplicated > 0) violation = `${lost} lines lost, ${duplicated} duplicated`;
  else if (differing > 0) violation = `${differing} completed lines differ from the fault-free run`;
  else if (unexpectedErrors.length > 0 || missingPoison.length > 0)
    violation = `error file holds ${JSON.stringify(b.errors.map((l) => l.custom_id))}, expected the poison lines ${JSON.stringify(poisoned)}${want.unfinished ? ` and ${want.unfinished} ones` : ''}`;
  else violation = filesViolation(b);
  const { id, status, listed } = b;
  const counts = { lines: b.lines.length, completed: b.output.length, failed: b.errors.length, lost, duplicated, differing };
  return { id, status, ...counts, outputFiles: listed.output.length, errorFiles: listed.error.length, violation };
}

/** One output file (when a line completed) and at most one error file are listed, and they are the ones the batch names. */
function filesViolation(b: BatchResult): string | undefined {
  const named = (id: string | undefined) => (id === undefined ? [] : [id]);
  if (!isDeepStrictEqual(b.listed.output, named(b.named.output)) || !isDeepStrictEqual(b.listed.error, named(b.named.error)))
    return `listed files ${JSON.stringify(b.listed)}, the batch names ${JSON.stringify(b.named)}`;
  if (b.output.length > 0 && b.listed.output.length !== 1)
    return `${b.listed.output.length} output files for ${b.output.length} completed lines`;
  return undefined;
}

/** The key's ledger: never past its limits, and after the end exactly what the files hold. */
function ledgerViolations(chaos: BatchesLaneResult, quotaLimit: BatchesLaneReport['quotaLimit'], cleanBytes: number): string[] {
  const violations: string[] = [];
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
  return violations;
}

/**
 * The batches lane checked against a fault-free run of the same batches: every batch ends as its case says; every input
 * line is in the output or the error file exactly once; completed lines equal the fault-free run's; only the poison
 * lines (and, when a batch ended early, the lines it did not run) fail; each batch has one output file listed, the one it
 * names; the key's ledger never passes its limits, and after the end holds no running batch and exactly the bytes and
 * files the batches' output and error files hold; a file never has two writers at once. In the quota case the output
 * files together hold no more than the quota (every completed line was charged to it once).
 */
export function batchesVerdicts(clean: BatchesLaneResult, chaos: BatchesLaneResult, work: BatchesWork): BatchesLaneReport {
  const ending = work.ending ?? 'completed';
  const reference = new Map(clean.batches.flatMap((b) => b.output.map((l) => [l.custom_id, responseOf(l)] as const)));
  const quotaLimit = { running_batches: work.batches, stored_bytes: storedBytesLimit(clean, ending) };
  const verdicts = chaos.batches.map((b) => batchVerdict(b, reference, ending));
  const violations = verdicts.filter((v) => v.violation).map((v) => `${v.id}: ${v.violation}`);
  violations.push(...ledgerViolations(chaos, quotaLimit, clean.filesAfter.bytes));
  const outputBytes = chaos.batches.reduce((a, b) => a + b.outputBytes, 0);
  if (ending === 'quota' && outputBytes > quotaLimit.stored_bytes)
    violations.push(`the output files hold ${outputBytes} bytes, more than the key's quota of ${quotaLimit.stored_bytes}`);
  return { ...chaos, ending, verdicts, quotaLimit, violations };
}

/**
 * The key's stored-bytes limit for the run. Completed and expiry: room for every output once, plus one batch's worth
 * twice: while a finalizer hands its lines' bytes to its files, both count for a moment (transferToFiles), which the
 * limit must allow without failing a batch that fits. Quota: less than any one batch needs (quotaCaseLimit).
 */
export const storedBytesLimit = (clean: BatchesLaneResult, ending: BatchEndingCase = 'completed'): number =>
  ending === 'quota' ? quotaCaseLimit(clean.batches.map((b) => b.bytes)) : Math.ceil(clean.filesAfter.bytes * 2);
