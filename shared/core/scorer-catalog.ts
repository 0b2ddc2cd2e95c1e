import type { Scorer } from '../scoring/scorer.js';

/** The models this deployment serves, by the id clients put in `model`. */
export interface ScorerCatalog {
  /** `undefined` = the default model. Only called with ids listed by `ids()`. */
  get(id: string | undefined): Scorer;
  ids(): readonly string[];
}
