import { admitBatchLine, type AdmittedLine } from './admit-batch-line.js';
import type { BatchEngineDeps } from './batch-engine-deps.js';
import type { BatchChunkTask, BatchRecord, BatchRequestPlan } from './batch-model.js';
import { expectAnalysisOnce } from './corpus-analysis-ledger.js';
import { corpusSpans, groupLinesFor, ledgerScoresOfLine, type CorpusSpan } from './corpus-line-groups.js';
import { claimRefusedCustomId, refuseDuplicate, type CustomIdLines } from './custom-id-lines.js';
import { inlineChunks } from './inline-chunks.js';
import { keepResult } from './keep-result.js';
import { lineCorpus, type PlannedCorpora } from './line-corpus.js';
import { refusedLineResult } from './refused-line-result.js';
import { storedAnalysisFor } from './stored-analysis-for.js';

/** What one planning run keeps across lines: corpora read once, custom ids seen, corpus analyses named to the ledger. */
export interface LinePlanning {
  readonly corpora: PlannedCorpora;
  readonly customIds: CustomIdLines;
  readonly analyses: Set<string>;
}

/** One input line to plan: its number and where its bytes sit in the input file. */
export interface InputLine {
  readonly line: number;
  readonly range: { start: number; end: number };
  readonly bytes: Buffer;
}

/** A planned line: its request plan and chunk tasks, or (scored over a stored analysis) the group its spans join. */
export interface PlannedLine {
  readonly plan: BatchRequestPlan;
  readonly tasks: BatchChunkTask[];
  readonly group?: { key: string; spans: readonly CorpusSpan[]; maxLines: number };
}

/** One line: admitted -> its request plan and chunk tasks (the caller writes and sends them); refused -> its error line. */
export async function planLine(
  deps: BatchEngineDeps,
  batch: BatchRecord,
  input: InputLine,
  run: LinePlanning,
): Promise<PlannedLine | undefined> {
  const { customIds } = run;
  try {
    const admitted = admitBatchLine(input.bytes, batch.endpoint, deps.admission);
    refuseDuplicate(customIds, admitted.customId);
    customIds.set(admitted.customId, input.line);
    if (admitted.corpusFileId === undefined) return inlinePlan(deps, batch, input, admitted);
    return await corpusPlan(deps, batch, input, admitted, run);
  } catch (error) {
    claimRefusedCustomId(customIds, error, input.line);
    await keepResult(deps, batch, refusedLineResult(input.line, error));
    return undefined;
  }
}

const chunkModelOf = (admitted: AdmittedLine): string => admitted.plan.fusion?.chunkModel ?? admitted.plan.model;

/** Inline documents: one task per slice of the line's own documents. */
function inlinePlan(deps: BatchEngineDeps, batch: BatchRecord, input: InputLine, admitted: AdmittedLine): PlannedLine {
  const slices = inlineChunks(admitted, deps);
  const plan: BatchRequestPlan = {
    line: input.line,
    customId: admitted.customId,
    range: input.range,
    candidates: { kind: 'inline', count: admitted.request.documents.length },
    chunkModel: chunkModelOf(admitted),
    chunkCount: slices.length,
  };
  const tasks = slices.map((slice, chunkIndex) => ({ batchId: batch.id, line: input.line, kind: 'chunk' as const, chunkIndex, ...slice }));
  return { plan, tasks };
}

/** A stored corpus: one task per corpus chunk, or, scored from its stored analysis, a place in its group's span tasks. */
async function corpusPlan(
  deps: BatchEngineDeps,
  batch: BatchRecord,
  input: InputLine,
  admitted: AdmittedLine,
  run: LinePlanning,
): Promise<PlannedLine> {
  const { limits } = deps;
  const chunkModel = chunkModelOf(admitted);
  const corpus = await lineCorpus(deps, batch, admitted, run.corpora);
  const plan = (chunkCount: number): BatchRequestPlan => ({
    line: input.line,
    customId: admitted.customId,
    range: input.range,
    candidates: { kind: 'corpus', fileId: corpus.file.id, version: corpus.file.version, count: corpus.count },
    chunkModel,
    chunkCount,
  });
  const stored = storedAnalysisFor(deps, admitted, chunkModel) !== undefined;
  if (stored) await expectAnalysisOnce(deps.analysis, batch.id, corpus, chunkModel, run.analyses);
  // Scored from the stored analysis: its tasks are its group's (same corpus version, same model), one per span of shards.
  if (limits.corpusGroupLines > 1 && stored) {
    const spans = corpusSpans(corpus.chunks, limits.corpusShardsPerTask);
    const maxLines = groupLinesFor(ledgerScoresOfLine(corpus.count, spans.length, admitted.request.topN), limits.corpusGroupLines);
    return {
      plan: plan(spans.length),
      tasks: [],
      group: { key: `${corpus.file.id}\n${corpus.file.version}\n${chunkModel}`, spans, maxLines },
    };
  }
  const tasks = corpus.chunks.map((chunk, chunkIndex) => ({
    batchId: batch.id,
    line: input.line,
    kind: 'chunk' as const,
    chunkIndex,
    offset: chunk.offset,
    count: chunk.count,
    corpusRange: chunk.range,
  }));
  return { plan: plan(corpus.chunks.length), tasks };
}
