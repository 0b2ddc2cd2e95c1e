import type { LexicalFeatures } from '../lexical/lexical-features.js';
import type { LogisticModel } from '../logistic-model.js';
import type { ScoreBatch, ScoreOptions, Scorer } from '../../core/scorer.js';
import { compileFusion } from './compiled-fusion.js';
import { createHybridScorer } from './hybrid-scorer.js';
import { USE_LITE_BM25_FUSION } from './use-lite-fusion.js';
import { createStoredAnalysis, type StoredAnalysis } from '../corpus/stored-analysis.js';

/** A lexical scorer that can describe each pair by request-independent features (createBm25Scorer does). */
export interface LexicalFeatureSource extends Scorer {
  features(query: string, documents: readonly string[]): LexicalFeatures[];
}

export interface FittedHybridScorerOptions {
  readonly id: string;
  /** A per-document similarity model (bi-encoder cosine); its tokens are the hybrid's tokens. */
  readonly model: Scorer;
  readonly lexical: LexicalFeatureSource;
  /** Default USE_LITE_BM25_FUSION: weights fitted for the USE-lite cosine. */
  readonly calibration?: LogisticModel;
}

/** A hybrid whose score is P(relevant) for each (query, document) on its own. */
export interface FittedHybridScorer extends Scorer {
  readonly scoreKind: 'similarity';
  /** Every feature comes from the pair alone: a queued job's chunks score independently. */
  readonly candidateRelative: false;
  readonly fusion: 'logistic';
  readonly model: Scorer;
  readonly calibration: LogisticModel;
  /** The model's stored embeddings and the lexical side's term counts, when both parts have them. */
  readonly documentAnalysis?: StoredAnalysis;
}

const hasFeatures = (scorer: Scorer): scorer is LexicalFeatureSource =>
  typeof (scorer as Partial<LexicalFeatureSource>).features === 'function';

/**
 * sigmoid(w . [the fusion's named features: lexical ones, cosine, ...] + b), features and weights fitted offline on training
 * pairs (scripts/eval/fit-fusion.ts). Unlike min-max fusion, a document's score does not move when
 * other candidates are added or removed, and it estimates the probability that the document is the
 * relevant one (calibration measured in eval/report.md), so rerank_threshold is an absolute cut.
 */
export function createFittedHybridScorer(options: FittedHybridScorerOptions): FittedHybridScorer {
  const { model, lexical } = options;
  const calibration = options.calibration ?? USE_LITE_BM25_FUSION;
  // The same last step as score(): a NaN cosine counts as no semantic match.
  // Its features looked up once (compileFusion: the same double as logisticProbability over fusionFeatureVector).
  const fusion = compileFusion(calibration);
  const fused = (cosine: number, f: LexicalFeatures) => fusion(Number.isFinite(cosine) ? cosine : 0, f);
  const dense = (model.documentAnalysis as StoredAnalysis | undefined)?.dense;
  const lexicalSide = (lexical.documentAnalysis as StoredAnalysis | undefined)?.lexical;
  const documentAnalysis =
    dense && lexicalSide ? createStoredAnalysis({ dense, lexical: lexicalSide, combine: (cosine, f) => fused(cosine, f!) }) : undefined;
  return {
    ...(documentAnalysis ? { documentAnalysis } : {}),
    id: options.id,
    scoreKind: 'similarity',
    // Its model's tokenizer path applies the token controls; the lexical part reads whole documents.
    ...(model.controls ? { controls: model.controls } : {}),
    calibrated: true,
    candidateRelative: false,
    fusion: 'logistic',
    model,
    calibration,
    async score(query: string, documents: readonly string[], scoreOptions?: ScoreOptions): Promise<ScoreBatch> {
      if (documents.length === 0) return { scores: [], tokens: 0 };
      const modelBatch = await model.score(query, documents, scoreOptions);
      const features = lexical.features(query, documents);
      if (modelBatch.scores.length !== documents.length || features.length !== documents.length) {
        throw new Error(
          `hybrid ${options.id}: got ${modelBatch.scores.length} model scores and ${features.length} feature rows for ${documents.length} documents`,
        );
      }
      // A NaN cosine (never from USE-lite) counts as no semantic match rather than poisoning the score.
      const scores = features.map((f, i) => fused(modelBatch.scores[i]!, f));
      return { scores, tokens: modelBatch.tokens, ...(modelBatch.cuts ? { cuts: modelBatch.cuts } : {}) };
    },
  };
}

/**
 * The hybrid a `hybrid:<model>+<lexical>` spec or the `hybrid` strategy gets: the fitted, absolute one
 * when the model scores each document on its own as a similarity (a bi-encoder cosine, what the
 * weights were fitted for) and the lexical side has features; otherwise per-request min-max fusion
 * (cross-encoder logits have no fitted weights here - see docs/models.md).
 */
export function createDefaultHybridScorer(options: { id: string; model: Scorer; lexical: Scorer }): Scorer {
  const { id, model, lexical } = options;
  if (model.scoreKind === 'similarity' && model.candidateRelative === false && hasFeatures(lexical))
    return createFittedHybridScorer({ id, model, lexical });
  return createHybridScorer({ id, model, lexical });
}

/** True for a lexical scorer or a hybrid (either kind): the `hybrid` strategy uses it as it is. */
export const isLexicalOrHybrid = (scorer: Scorer): boolean => hasFeatures(scorer) || 'fusion' in scorer;
