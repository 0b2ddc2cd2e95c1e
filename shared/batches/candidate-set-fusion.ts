import type { Scorer } from '../core/scorer.js';

/** Min and max of one fusion component's finite values over a whole candidate set (min > max: none). */
export interface ComponentRange {
  readonly min: number;
  readonly max: number;
}

/**
 * A model that normalizes over its candidate set (the min-max hybrid) taken apart so a corpus of any size is
 * fused ONCE over all its documents while streaming: chunks record both per-document components, the request's
 * finalizer gathers each component's range in a first pass and fuses in a second. Built from the scoring
 * layer's hybrid (a batches-side port: core's Scorer is unchanged).
 */
export interface CandidateSetFusion {
  /** The per-document lexical part, scored chunk by chunk beside the model. */
  readonly lexical: Scorer;
  /** The two components the fusion rescales, from the model's raw score and the lexical score. */
  components(modelRaw: number, lexical: number): readonly [number, number];
  /** The fused score of one document, from its components and the set's ranges. */
  fuse(components: readonly [number, number], ranges: readonly [ComponentRange, ComponentRange]): number;
  /** Widens a range by one component value (finite values only), as the whole-set rescaling counts them. */
  widen(range: ComponentRange, value: number): ComponentRange;
}
