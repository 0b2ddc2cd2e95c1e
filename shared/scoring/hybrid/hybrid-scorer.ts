import { sigmoid } from '../../core/score-activation.js';
import type { ScoreBatch, ScoreOptions, Scorer, SplittableScorer } from '../../core/scorer.js';
import { fuseMinMax, fuseRrf, RRF_K } from './score-fusion.js';

export type HybridFusion = 'minmax' | 'rrf';

export interface HybridScorerOptions {
  /** The model id clients name in the `model` field. */
  readonly id: string;
  /** The neural component (cross-encoder or bi-encoder). Its tokens are the hybrid's tokens. */
  readonly model: Scorer;
  /** The lexical component, e.g. createBm25Scorer(). */
  readonly lexical: Scorer;
  /** The model's share of the fused score, 0..1 (default 0.5); the lexical share is 1 - weight. */
  readonly weight?: number;
  /** Default 'minmax'; see createHybridScorer. */
  readonly fusion?: HybridFusion;
}

export interface HybridScorer extends SplittableScorer {
  readonly scoreKind: 'similarity';
  /** Fused scores depend on the whole candidate set: per-request min-max or ranks. */
  readonly candidateRelative: true;
  readonly fusion: HybridFusion;
  readonly weight: number;
  /** The neural part: its scores are per document, so queued jobs score chunks with it alone... */
  readonly model: Scorer;
  /** The lexical part (a batch over a corpus scores it per chunk and min-max fuses over the whole corpus). */
  readonly lexical: Scorer;
  /** ...and the merge fuses them with the lexical part over the whole candidate set. */
  fuse(query: string, documents: readonly string[], modelScores: readonly number[]): Promise<number[]>;
}

/**
 * A Scorer that fuses a model and a lexical scorer, both run on the same (query, documents):
 *
 * - 'minmax' (default): weight * minmax(m) + (1 - weight) * minmax(l), where minmax rescales each
 *   component to [0, 1] over this request's candidates and m is the model's score after a sigmoid
 *   when its scoreKind is 'logit' (so the model side is a probability before rescaling; the sigmoid
 *   is monotonic, it changes how evenly logits spread over [0, 1], not their order). Fused scores are in [0, 1].
 * - 'rrf': weight / (60 + rank(m)) + (1 - weight) / (60 + rank(l)), reciprocal rank fusion with k = 60
 *   (ties share a rank). Uses ranks only, so it ignores how far apart the scores are.
 *
 * Why not add raw scores: logits, cosines and BM25 sums have unrelated scales that change per request
 * (BM25 grows with query length and shrinks as terms get common), so a fixed weight on raw scores
 * would mean something different in every request. Both rules are scale-free. The flip side: fused
 * scores only compare candidates WITHIN one request; a rerank_threshold on them is a relative cut. The served
 * default for bi-encoders is createFittedHybridScorer instead (absolute P(relevant); fitted-hybrid-scorer.ts).
 *
 * scoreKind 'similarity' (no further sigmoid); tokens are the model's. close() does NOT close the
 * components: they are usually also served on their own, and their owner (the registry) closes them.
 */
export function createHybridScorer(options: HybridScorerOptions): HybridScorer {
  const weight = options.weight ?? 0.5;
  const fusion = options.fusion ?? 'minmax';
  if (!Number.isFinite(weight) || weight < 0 || weight > 1) throw new RangeError(`hybrid weight must be within [0, 1], got ${weight}`);
  if (fusion !== 'minmax' && fusion !== 'rrf') throw new RangeError(`hybrid fusion must be 'minmax' or 'rrf', got '${String(fusion)}'`);
  const { model, lexical } = options;
  const modelIsLogit = model.scoreKind === 'logit';

  const checkLength = (name: string, scores: readonly number[], expected: number) => {
    if (scores.length !== expected) {
      throw new Error(`hybrid ${options.id}: scorer ${name} returned ${scores.length} scores for ${expected} documents`);
    }
  };
  async function fuse(query: string, documents: readonly string[], rawModelScores: readonly number[]): Promise<number[]> {
    checkLength(model.id, rawModelScores, documents.length);
    const lexicalBatch = await lexical.score(query, documents);
    checkLength(lexical.id, lexicalBatch.scores, documents.length);
    const modelScores = modelIsLogit ? rawModelScores.map(sigmoid) : rawModelScores;
    return fusion === 'rrf'
      ? fuseRrf(modelScores, lexicalBatch.scores, weight, RRF_K)
      : fuseMinMax(modelScores, lexicalBatch.scores, weight);
  }

  return {
    id: options.id,
    scoreKind: 'similarity',
    // Its model's tokenizer path applies the token controls; the lexical part reads whole documents.
    ...(model.controls ? { controls: model.controls } : {}),
    candidateRelative: true,
    fusion,
    weight,
    model,
    lexical,
    fuse,
    async score(query: string, documents: readonly string[], scoreOptions?: ScoreOptions): Promise<ScoreBatch> {
      if (documents.length === 0) return { scores: [], tokens: 0 };
      const modelBatch = await model.score(query, documents, scoreOptions);
      return {
        scores: await fuse(query, documents, modelBatch.scores),
        tokens: modelBatch.tokens,
        ...(modelBatch.cuts ? { cuts: modelBatch.cuts } : {}),
      };
    },
  };
}
