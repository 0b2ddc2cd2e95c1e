import { batchCost } from './length-batches.js';

/** Characters per token assumed before tokenizing: cautious (English prose runs ~4, code and other scripts less). */
const CHARS_PER_TOKEN = 3;
/** Recent requests the pace is taken from. */
const WINDOW = 32;
/**
 * Words of the document a scorer scores once at load to measure its pace (paceWarmUpDocument): ~128 tokens with
 * a WordPiece or byte-level BPE tokenizer (" pace" is one token in both), so the attention term is in the sample.
 */
const PACE_WARM_UP_WORDS = 120;

/** The warm-up document: one pair of ~PACE_WARM_UP_WORDS tokens (its real token count is what the meter records). */
export function paceWarmUpDocument(): string {
  return Array.from({ length: PACE_WARM_UP_WORDS }, () => 'pace').join(' ');
}

/**
 * A scorer's cost estimate, in seconds, for the planner: its own measured pace (seconds per unit of `batchCost`,
 * which counts the attention term) times the units a request would take, the pair lengths estimated from characters.
 * The pace is taken from the scorer's recent requests on this machine, so it needs no per-model constant. Before the
 * first request it is the load's warm-up batch (`record(..., true)`), so the first request in a fresh process is
 * planned by its cost like the rest (without it, a first 30 x 65,000-character LLM request ran synchronously into
 * the deadline while the next identical one became a job); the first real request replaces that sample.
 */
export class CostMeter {
  readonly #samples: { units: number; seconds: number }[] = [];
  #warmUp: { units: number; seconds: number } | undefined;

  readonly #maxLength: number;
  readonly #hiddenSize: number | undefined;

  constructor(maxLength: number, hiddenSize: number | undefined) {
    this.#maxLength = maxLength;
    this.#hiddenSize = hiddenSize;
  }

  /** Units of the pairs as tokenized (their real lengths). */
  unitsOf(lengths: readonly number[]): number {
    let units = 0;
    for (const length of lengths) units += batchCost(1, length, this.#hiddenSize);
    return units;
  }

  /** `warmUp`: the load's pace sample, used only until a real request is recorded (one short pair is a thin sample). */
  record(lengths: readonly number[], seconds: number, warmUp = false): void {
    const units = this.unitsOf(lengths);
    if (units <= 0 || !Number.isFinite(seconds) || seconds < 0) return;
    if (warmUp) {
      this.#warmUp = { units, seconds };
      return;
    }
    this.#samples.push({ units, seconds });
    if (this.#samples.length > WINDOW) this.#samples.shift();
  }

  /** Seconds scoring these texts would take at the recent pace; undefined before anything was measured. Linear in the characters. */
  estimateSeconds(query: string, documents: readonly string[]): number | undefined {
    let units = 0;
    let seconds = 0;
    for (const sample of this.#samples.length > 0 ? this.#samples : this.#warmUp === undefined ? [] : [this.#warmUp]) {
      units += sample.units;
      seconds += sample.seconds;
    }
    if (units === 0) return undefined;
    const lengths = documents.map((document) =>
      Math.min(this.#maxLength, Math.ceil((query.length + document.length) / CHARS_PER_TOKEN) + 4),
    );
    return this.unitsOf(lengths) * (seconds / units);
  }
}
