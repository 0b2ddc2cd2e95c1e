import { RefusedLineError } from './admit-batch-line.js';
import { BadInputLineError } from './batch-input-line.js';
import type { BatchStore } from './batch-store.js';

/** Each custom_id seen so far and the line that first carried it (the line a duplicate is told to look at). */
export type CustomIdLines = Map<string, number>;

/**
 * A custom_id an earlier line carries refuses this line alone, naming that line: unlike OpenAI, which refuses the whole
 * file, the batch goes on (docs/api.md).
 */
export function refuseDuplicate(customIds: CustomIdLines, customId: string): void {
  const earlier = customIds.get(customId);
  if (earlier === undefined) return;
  throw new BadInputLineError(
    'duplicate_custom_id',
    `custom_id "${customId}" is already used by line ${earlier}; each must be unique (only this line is refused, the batch goes on)`,
    customId,
  );
}

/**
 * A custom_id belongs to the first line that carries it, even when that line is refused: a later line reusing it is a
 * duplicate, so one id names one line of the input (and one of the output or error file).
 */
export function claimRefusedCustomId(customIds: CustomIdLines, error: unknown, line: number): void {
  if (!(error instanceof BadInputLineError || error instanceof RefusedLineError)) return;
  if (error.customId !== undefined && !customIds.has(error.customId)) customIds.set(error.customId, line);
}

/**
 * The custom ids of the lines recorded before `line`, planned or refused (a resumed run must still refuse their
 * duplicates): a refused line's id is on its error line.
 */
export async function customIdsBefore(store: BatchStore, batchId: string, line: number | undefined): Promise<CustomIdLines> {
  const ids: CustomIdLines = new Map();
  if (line === undefined) return ids;
  const first = (customId: string, at: number) => ids.set(customId, Math.min(ids.get(customId) ?? at, at));
  for await (const request of store.readRequests(batchId)) if (request.line < line) first(request.customId, request.line);
  for await (const result of store.readResults(batchId)) {
    if (result.line >= line || result.outcome !== 'failed') continue;
    const customId = (JSON.parse(result.jsonl) as { custom_id?: unknown }).custom_id;
    if (typeof customId === 'string') first(customId, result.line);
  }
  return ids;
}
