import { RerankError, invalidRequest } from './rerank-error.js';
import { paramOf, type RequestParamNames } from './validate-request.js';
import { scoredText, type RerankRequest, type ScoreActivation } from './rerank-request.js';
import { resolveActivation } from './score-activation.js';
import { isChunkable, isSplittableScorer, type Scorer } from './scorer.js';
import { controlsOf } from './control-options.js';
import { unusedControls, type RequestControl } from './request-controls.js';

export interface SyncLimits {
  readonly syncMaxDocuments: number;
  readonly syncMaxChars: number;
}

export interface PlanLimits extends SyncLimits {
  /** Documents per chunk when the request names no batch size. */
  readonly defaultBatchSize: number;
  /**
   * Seconds of estimated scoring (Scorer.estimateSeconds) past which a chunkable request is sent to a job even under
   * the document and character limits: a few long pairs on an LLM reranker cost more than many short ones.
   */
  readonly syncBudgetSeconds?: number;
}

/**
 * Small requests are scored now, in the API function; large ones become a job of chunks scored by
 * workers. Characters stand in for tokens here: the decision must be cheap and made before tokenizing.
 */
export function needsQueuedJob(request: RerankRequest, limits: SyncLimits): boolean {
  if (request.documents.length > limits.syncMaxDocuments) return true;
  let chars = 0;
  for (const d of request.documents) {
    chars += d.text.length + (d.metadata?.length ?? 0) + request.query.length;
    if (chars > limits.syncMaxChars) return true;
  }
  return false;
}

/** Everything a job needs decided before it is stored, so workers and the merge never guess. */
export interface JobPlan {
  /** The model the job is recorded under (a hybrid's own id when fused). */
  readonly model: string;
  readonly activation: ScoreActivation;
  readonly batchSize: number;
  /** Chunks are scored by `chunkModel`; the merge fuses with the lexical part over all candidates. */
  readonly fusion?: { readonly chunkModel: string };
  /** Controls the request sent that the model has no use for: reported by its answer (job or batch line), as sync does. */
  readonly unusedControls?: readonly RequestControl[];
}

export type RequestPlan =
  /** Score now with RerankService.rerank; `unqueueable` says why it could not run as a job instead, when it could not. */
  | { readonly kind: 'sync'; readonly unqueueable?: string }
  /** Submit a job; `respondAsync` = answer 202 at once instead of waiting for it. */
  | { readonly kind: 'job'; readonly respondAsync: boolean; readonly job: JobPlan };

export interface PlanInput {
  readonly request: RerankRequest;
  /** The catalog lookup (RerankService.resolveScorer); called at most once, and only for plain model scoring. */
  readonly resolveScorer: (model: string | undefined) => Scorer;
  readonly limits: PlanLimits;
  /**
   * `auto`: a rerank endpoint, which answers now unless the request is large or the client prefers an
   * async answer. `job`: the jobs endpoint, where the request must run as a job.
   */
  readonly mode: 'auto' | 'job';
  /** `Prefer: respond-async` (RFC 7240): a preference, so requests that cannot be chunked are answered now. */
  readonly preferAsync?: boolean;
  /** False for dialects whose answer cannot come from a job (see Dialect.queueable). */
  readonly dialectQueueable?: boolean;
  /** The dialect's spelling of the fields a refusal names (Dialect.paramNames); absent = the domain names. */
  readonly names?: RequestParamNames;
}

/**
 * Only plain model scoring splits into independent chunks: per-document scorers, or a hybrid whose
 * lexical part waits for the merge. Strategies and upstreams score the whole set at once.
 */
const isPlain = (request: RerankRequest): boolean =>
  (request.strategy ?? 'default') === 'default' && !request.upstream && request.maxChunksPerDoc === undefined;

/**
 * Why a request cannot be split into a job, and the request field that makes it so: the domain field, reported
 * as the dialect spells it (`names`, from the dialect's declaration).
 */
export function unqueueable(request: RerankRequest, names?: RequestParamNames): { readonly reason: string; readonly param: string } {
  if (request.upstream) return { reason: 'it calls an upstream reranker', param: paramOf(names, 'upstream') };
  if (request.maxChunksPerDoc !== undefined)
    return { reason: `it sets ${paramOf(names, 'maxChunksPerDoc')}`, param: paramOf(names, 'maxChunksPerDoc') };
  if ((request.strategy ?? 'default') !== 'default') {
    return { reason: `its strategy '${request.strategy ?? ''}' scores the whole set at once`, param: paramOf(names, 'strategy') };
  }
  return { reason: 'its model scores the whole set at once', param: paramOf(names, 'model') };
}

/**
 * Sync or job, and for a job its model, activation, batch size and fusion: the one place this is decided.
 * The scorer is resolved once, and only when the request could run as a job.
 */
export function planRequest(input: PlanInput): RequestPlan {
  const { request, mode } = input;
  // A dialect that never queues scores through RerankService alone, which resolves the model itself.
  const mayQueue = mode === 'job' || input.dialectQueueable !== false;
  const scorer = mayQueue && isPlain(request) ? input.resolveScorer(request.model) : undefined;
  // Chunk tasks carry the instruction and the token controls (controlOptions), so neither keeps a request whole; a
  // fused hybrid's lexical part, at the merge, reads whole documents in a job as it does synchronously.
  const chunkable = scorer !== undefined && isChunkable(scorer);
  if (mode === 'job') {
    if (request.latency === 'fast')
      throw invalidRequest(
        'latency "fast" is answered synchronously and never runs as a job or a batch line: send "slow" or none',
        'latency',
      );
    if (!scorer || !chunkable) {
      const why = unqueueable(request, input.names);
      throw invalidRequest(
        `this request cannot run as a job: ${why.reason}; only the default strategy with a model whose scores do not depend on the other candidates can be split into chunks`,
        why.param,
      );
    }
    return { kind: 'job', respondAsync: true, job: jobPlan(request, scorer, input.limits) };
  }
  if (request.latency === 'fast') return fastPlan(request, scorer, input.limits);
  if (!scorer || !chunkable) {
    // What a request that outlives the sync deadline is told: a job is no way out for it.
    const reason = mayQueue ? unqueueable(request, input.names).reason : "this route's clients do not poll jobs";
    return { kind: 'sync', unqueueable: reason };
  }
  const respondAsync = input.preferAsync === true;
  if (!respondAsync && !needsQueuedJob(request, input.limits) && !overBudget(scorer, request, input.limits)) return { kind: 'sync' };
  return { kind: 'job', respondAsync, job: jobPlan(request, scorer, input.limits) };
}

/** Why latency "fast" cannot be given: what a 413 says, with "slow" as the way out. */
const FAST_WAY_OUT = 'send latency "slow" (or none) to have it run as a job, or fewer or shorter documents';

/**
 * ZeroEntropy's `latency: "fast"`: scored now or refused, never a job. Past the synchronous limits (documents,
 * characters, the scorer's estimated seconds) it is a 413 naming `"slow"`, the tier that takes it.
 */
function fastPlan(request: RerankRequest, scorer: Scorer | undefined, limits: PlanLimits): RequestPlan {
  const over = needsQueuedJob(request, limits) || (scorer !== undefined && overBudget(scorer, request, limits));
  if (over) {
    throw new RerankError(
      'payload_too_large',
      `latency "fast" answers only requests within the synchronous limits (${limits.syncMaxDocuments} documents, ${limits.syncMaxChars} characters, the model's time budget) and this one is past them: ${FAST_WAY_OUT}`,
      { param: 'latency' },
    );
  }
  return { kind: 'sync', unqueueable: 'it asks for latency "fast", which never runs as a job; "slow" does' };
}

/** The scorer's own estimate (its measured pace, pairs estimated from characters) against the synchronous budget. */
function overBudget(scorer: Scorer, request: RerankRequest, limits: PlanLimits): boolean {
  if (limits.syncBudgetSeconds === undefined || scorer.estimateSeconds === undefined) return false;
  const seconds = scorer.estimateSeconds(request.query, request.documents.map(scoredText));
  return seconds !== undefined && seconds > limits.syncBudgetSeconds;
}

function jobPlan(request: RerankRequest, scorer: Scorer, limits: PlanLimits): JobPlan {
  const unused = unusedControls(request, controlsOf(scorer));
  return {
    model: scorer.id,
    activation: resolveActivation(request.activation, scorer),
    batchSize: request.batchSize ?? limits.defaultBatchSize,
    ...(isSplittableScorer(scorer) ? { fusion: { chunkModel: scorer.model.id } } : {}),
    ...(unused.length > 0 ? { unusedControls: unused } : {}),
  };
}
