import { randomUUID } from 'node:crypto';
import { RerankError } from '../core/rerank-error.js';
import { CutsTally, type TokenCuts } from '../core/request-controls.js';
import { scoredText, type RerankDocument } from '../core/rerank-request.js';
import type { AdmittedLine } from './admit-batch-line.js';
import type { BatchEngineDeps } from './batch-engine-deps.js';
import { nowSeconds } from './batch-engine-deps.js';
import type { BatchRequestPlan, BatchRequestResult } from './batch-model.js';
import { completedLine } from './batch-output-lines.js';
import { parseCorpusDocument } from './corpus-reference.js';
import { readJsonlLines } from './jsonl-lines.js';
import { TopNSelection } from '../engine/top-n-selection.js';
import { CannotFuseHereError, rankSelected, selectTopScores, type SelectedScores } from '../engine/rank-chunk-scores.js';
import { outcomeFromStored } from '../engine/stored-outcome.js';
import type { ComponentRange } from './candidate-set-fusion.js';

/** The documents of the selected corpus indices, read in one streaming pass over the corpus. */
async function corpusDocuments(deps: BatchEngineDeps, fileId: string, indices: readonly number[]): Promise<Map<number, RerankDocument>> {
  const wanted = new Set(indices);
  const found = new Map<number, RerankDocument>();
  if (wanted.size === 0) return found;
  const max = deps.limits.maxReturnedDocumentBytes;
  let bytes = 0;
  for await (const line of readJsonlLines(deps.files.read(fileId), { maxLineBytes: deps.limits.maxCorpusLineBytes })) {
    const index = line.line - 1;
    if (!wanted.has(index) || !line.bytes) continue;
    bytes += line.bytes.length;
    if (bytes > max) {
      throw new RerankError(
        'payload_too_large',
        `the documents this line returns pass ${max} bytes: set return_documents to false (you have the corpus) or lower top_n`,
        { param: 'return_documents' },
      );
    }
    found.set(index, parseCorpusDocument(line.bytes, line.line));
    if (found.size === wanted.size) break;
  }
  return found;
}

/**
 * A corpus fused ONCE over all its documents while streaming: a first pass gathers each component's range over the
 * whole corpus, a second fuses every document against those ranges (never per chunk) into the top-n heap.
 */
async function fuseCorpus(
  deps: BatchEngineDeps,
  batchId: string,
  plan: BatchRequestPlan,
  model: string,
  selection: TopNSelection,
): Promise<{ tokens: number; seen: number; cuts: TokenCuts | undefined }> {
  const fusion = deps.setFusionFor?.(model);
  if (!fusion) throw new CannotFuseHereError(model, 'a corpus');
  let ranges: [ComponentRange, ComponentRange] = [EMPTY_RANGE, EMPTY_RANGE];
  let tokens = 0;
  let seen = 0;
  const cuts = new CutsTally();
  for await (const chunk of deps.store.readChunkScores(batchId, plan.line, plan.chunkCount)) {
    cuts.add(chunk.cuts);
    chunk.scores.forEach((raw, i) => {
      const [m, l] = fusion.components(raw, chunk.lexical?.[i] ?? Number.NaN);
      ranges = [fusion.widen(ranges[0], m), fusion.widen(ranges[1], l)];
    });
    tokens += chunk.tokens;
    seen += chunk.scores.length;
  }
  for await (const chunk of deps.store.readChunkScores(batchId, plan.line, plan.chunkCount)) {
    chunk.scores.forEach((raw, i) =>
      selection.offer(chunk.offset + i, fusion.fuse(fusion.components(raw, chunk.lexical?.[i] ?? Number.NaN), ranges)),
    );
  }
  return { tokens, seen, cuts: cuts.cuts };
}

const EMPTY_RANGE: ComponentRange = { min: Infinity, max: -Infinity };

/**
 * Every chunk of a request is in: its output line, exactly what the route answers for the body. Scores stream
 * chunk by chunk through a top-n heap (memory O(top_n)); a fused model fuses once over the whole candidate set
 * (inline sets only: they are bounded by the line). The survivors go through the SAME normalizeResults as sync,
 * and the route's dialect formats the outcome.
 */
export async function buildRequestResult(
  deps: BatchEngineDeps,
  batchId: string,
  plan: BatchRequestPlan,
  admitted: AdmittedLine,
): Promise<BatchRequestResult> {
  const { request, dialect, plan: job } = admitted;
  const total = plan.candidates.count;
  const options = { total, activation: job.activation, topN: request.topN, threshold: request.threshold };
  const ledgerRequest = { owner: batchId, line: plan.line, chunkCount: plan.chunkCount };
  let selected: SelectedScores;
  if (job.fusion && plan.candidates.kind === 'corpus') {
    const selection = new TopNSelection({
      capacity: Math.min(request.topN ?? total, total),
      activation: job.activation,
      threshold: request.threshold,
    });
    const { tokens, seen, cuts } = await fuseCorpus(deps, batchId, plan, job.model, selection);
    if (seen !== total) throw new RerankError('internal', `request on line ${plan.line}: ${seen} scores for ${total} documents`);
    selected = { ...selection.selected(), tokens, ...(cuts ? { cuts } : {}) };
  } else {
    const fuser = job.fusion ? deps.fuserFor?.(job.model) : undefined;
    if (job.fusion && !fuser) throw new CannotFuseHereError(job.model);
    const fuse = fuser && ((scores: readonly number[]) => fuser(request.query, request.documents.map(scoredText), scores));
    selected = await selectTopScores(deps.store, ledgerRequest, { ...options, ...(fuse ? { fuse } : {}) });
  }
  let documentOf: ((index: number) => RerankDocument) | undefined;
  if (request.returnDocuments) {
    if (plan.candidates.kind === 'inline') documentOf = (i) => request.documents[i] as RerankDocument;
    else {
      const byIndex = await corpusDocuments(deps, plan.candidates.fileId, selected.indices);
      documentOf = (i) => byIndex.get(i) ?? { text: '' };
    }
  }
  const ranked = rankSelected(selected, options).map((r) => [r.index, r.score] as const);
  const requestId = randomUUID();
  // The same outcome a job's poll rebuilds from its stored result; a batch reports no timings (it ran in the background).
  const outcome = outcomeFromStored({
    id: requestId,
    model: job.model,
    ranked,
    totalTokens: selected.tokens,
    wallMs: 0,
    // Reported in the line's body where its dialect has a place (Cohere's meta.warnings); a line has no headers.
    cuts: selected.cuts,
    unusedControls: job.unusedControls,
    ...(documentOf ? { documentOf } : {}),
  });
  const body = dialect.formatOutcome(outcome, { requestId, now: nowSeconds(deps) }, request).body;
  return completedLine(plan.line, plan.customId, requestId, body);
}
