import { echoText } from './echo-text.js';
import { performance } from 'node:perf_hooks';
import { ModelFailedError } from './model-failed-error.js';
import { controlOptions, controlsOf } from './control-options.js';
import { unusedControls, type RequestControl, type TokenCuts } from './request-controls.js';
import { randomUUID } from 'node:crypto';
import { applyBoost } from './apply-boost.js';
import { normalizeResults } from './normalize-results.js';
import { RerankError, invalidRequest } from './rerank-error.js';
import type { RerankOutcome } from './rerank-outcome.js';
import { scoredText, type RerankRequest, type ScoreActivation, type UpstreamReranker } from './rerank-request.js';
import { resolveActivation, sigmoid } from './score-activation.js';
import type { Scorer } from './scorer.js';
import type { ScorerRegistry } from './scorer-registry.js';
import { paramOf, type RequestParamNames } from './validate-request.js';
import { maxPerOwner, splitLongDocuments } from './split-long-documents.js';

export interface RerankServiceDeps {
  /** ids() includes aliases; servedIds() (default ids()) only the models served, for error messages. */
  readonly catalog: Pick<ScorerRegistry, 'get' | 'ids'> & { servedIds?(): string[]; refusalOf?(id: string): string | undefined };
  /** Builds the hybrid of a model and the lexical scorer (strategy `hybrid`). */
  readonly hybridOf?: (model: Scorer) => Scorer;
  /** A scorer that calls an upstream rerank API (external provider, strategy `llm_rerank`). */
  readonly upstreamScorer?: (upstream: UpstreamReranker) => Scorer;
  readonly newId?: () => string;
  /** Wraps the scoring step in a trace span (X-Ray on Lambda); core knows the port, observability the tracer. */
  readonly trace?: <T>(name: string, work: () => Promise<T>) => Promise<T>;
}

/** What scoring produced before normalization. */
interface Scored {
  readonly scorerId: string;
  /** The scorer's own output, before boost (RAG metadata `raw_scores`). */
  readonly raw: number[];
  readonly scores: number[];
  readonly tokens: number;
  /** Texts scored against the query (chunks of split documents each count). */
  readonly pairs: number;
  readonly activation: ScoreActivation;
  /** What the model cut (token caps, its window), document indices the request's. */
  readonly cuts?: TokenCuts | undefined;
  /** The controls used by the scorer that scored (none for strategy `none`). */
  readonly controls: readonly RequestControl[];
}

/**
 * The synchronous path: pick the scorer the strategy asks for, score, normalize, return.
 * Knows neither HTTP nor AWS.
 */
export class RerankService {
  readonly #deps: RerankServiceDeps;
  readonly #newId: () => string;

  constructor(deps: RerankServiceDeps) {
    this.#deps = deps;
    this.#newId = deps.newId ?? randomUUID;
  }

  resolveScorer(model: string | undefined): Scorer {
    const ids = this.#deps.catalog.ids();
    if (model !== undefined && !ids.includes(model)) {
      // The served ids, not every alias: the way out is one of them, or serving the model (RERANK_MODELS).
      const served = this.#deps.catalog.servedIds?.() ?? ids;
      const aliases = ids.length - served.length;
      const why = this.#deps.catalog.refusalOf?.(model);
      throw invalidRequest(
        `model '${echoText(model)}' is not served here${why ? ` (${why})` : ''}; served models: ${served.join(', ')}` +
          `${aliases > 0 ? ` (plus ${aliases} aliases of them)` : ''}` +
          '; to serve another, add it to RERANK_MODELS (docs/models.md)',
        'model',
      );
    }
    return this.#deps.catalog.get(model);
  }

  /**
   * The scorer a request is scored with (strategy and upstream applied). Jobs fan out only when this
   * scorer's scores do not depend on the other candidates.
   */
  scorerFor(request: RerankRequest, names?: RequestParamNames): Scorer {
    const strategy = request.strategy ?? 'default';
    if (request.upstream || strategy === 'llm_rerank') {
      // Refusals name the domain field, spelled as the request's dialect spells it (paramOf).
      const upstream = paramOf(names, 'upstream');
      if (!request.upstream) throw invalidRequest(`strategy llm_rerank needs an upstream: ${upstream}`, upstream);
      if (!this.#deps.upstreamScorer) throw invalidRequest('upstream rerank providers are not enabled here', upstream);
      return this.#deps.upstreamScorer(request.upstream);
    }
    const model = this.resolveScorer(request.model);
    if (strategy === 'hybrid') {
      if (!this.#deps.hybridOf) throw invalidRequest('strategy hybrid is not enabled here', paramOf(names, 'strategy'));
      return this.#deps.hybridOf(model);
    }
    return model;
  }

  async #score(request: RerankRequest, signal: AbortSignal | undefined, names: RequestParamNames | undefined): Promise<Scored> {
    const strategy = request.strategy ?? 'default';
    if (strategy === 'none') {
      // Strategy `none`: every document scores 0, and ties keep the input order.
      const zeros = request.documents.map(() => 0);
      return { scorerId: 'none', raw: zeros, scores: zeros, tokens: 0, pairs: zeros.length, activation: 'none', controls: [] };
    }
    const scorer = this.scorerFor(request, names);
    const texts = request.documents.map(scoredText);
    // The controls the scorer's tokenizer path or template uses; the others are left out (and reported unused).
    const scoreOptions = {
      ...controlOptions(scorer, {
        instruction: request.prompt,
        maxDocumentTokens: request.maxTokensPerDocument,
        maxQueryTokens: request.maxTokensPerQuery,
        truncationSide: request.truncationSide,
      }),
      signal,
    };
    const runModel = async (documents: readonly string[]) => {
      try {
        return await scorer.score(request.query, documents, scoreOptions);
      } catch (error) {
        // The service's own refusals and deadlines pass as they are; anything else the model threw is the model's failure.
        throw error instanceof RerankError || signal?.aborted ? error : new ModelFailedError(scorer.id, error);
      }
    };
    let scores: number[];
    let tokens: number;
    let cuts: TokenCuts | undefined;
    let pairs = texts.length;
    if (request.maxChunksPerDoc !== undefined) {
      const split = splitLongDocuments(texts, request.maxChunksPerDoc);
      const batch = await runModel(split.texts);
      scores = maxPerOwner(batch.scores, split.owner, texts.length);
      tokens = batch.tokens;
      pairs = split.texts.length;
      // A cut chunk is reported as its document.
      cuts = batch.cuts && { ...batch.cuts, documents: batch.cuts.documents.map(([i, kept]) => [split.owner[i] as number, kept] as const) };
    } else {
      const batch = await runModel(texts);
      scores = [...batch.scores];
      tokens = batch.tokens;
      cuts = batch.cuts;
    }
    // Upstream APIs answer final scores already; a local scorer's scores get the requested activation.
    let activation: ScoreActivation = request.upstream ? 'none' : resolveActivation(request.activation, scorer);
    const raw = scores;
    if (strategy === 'boost' && request.boost) {
      if (activation === 'sigmoid') scores = scores.map(sigmoid);
      scores = applyBoost(scores, request.documents, request.boost);
      activation = 'none';
    }
    return { scorerId: scorer.id, raw, scores, tokens, pairs, activation, cuts, controls: controlsOf(scorer) };
  }

  /**
   * `signal`: the request's deadline (see ScoreOptions.signal); aborted, it fails with its reason (or falls back, if asked).
   * `names`: how the request's dialect spells the fields a refusal names (absent = the domain names).
   */
  async rerank(
    request: RerankRequest,
    options: { readonly signal?: AbortSignal; readonly names?: RequestParamNames } = {},
  ): Promise<RerankOutcome> {
    const started = performance.now();
    let scored: Scored;
    let fallback = false;
    try {
      const score = () => this.#score(request, options.signal, options.names);
      scored = await (this.#deps.trace ? this.#deps.trace('scoring', score) : score());
    } catch (error) {
      if (error instanceof RerankError && error.kind === 'invalid_request') throw error;
      if (!request.fallbackToInputOrder) {
        // Past the deadline the scorer threw the signal's reason (or something else on its way out): answer the reason.
        if (options.signal?.aborted && options.signal.reason instanceof RerankError) throw options.signal.reason;
        if (error instanceof RerankError) throw error;
        throw new RerankError('internal', 'scoring failed', { cause: error });
      }
      // `fallbackToInputOrder`: the input order, flagged, rather than no answer at all.
      fallback = true;
      const zeros = request.documents.map(() => 0);
      const scorerId = request.upstream?.model ?? request.model ?? 'fallback';
      scored = { scorerId, raw: zeros, scores: zeros, tokens: 0, pairs: zeros.length, activation: 'none', controls: [] };
    }
    const scoredAt = performance.now();
    const results = normalizeResults(scored.scores, {
      activation: scored.activation,
      topN: request.topN,
      threshold: request.threshold,
      documents: request.returnDocuments ? request.documents : undefined,
    });
    return {
      id: this.#newId(),
      model: scored.scorerId,
      results,
      usage: { totalTokens: scored.tokens, pairs: scored.pairs },
      timings: { scoringMs: scoredAt - started, totalMs: performance.now() - started },
      rawScores: scored.raw,
      ...(fallback ? { fallback } : {}),
      ...(scored.cuts ? { cuts: scored.cuts } : {}),
      ...withUnused(unusedControls(request, scored.controls)),
    };
  }
}

const withUnused = (unused: RequestControl[]): { unusedControls?: RequestControl[] } =>
  unused.length > 0 ? { unusedControls: unused } : {};
