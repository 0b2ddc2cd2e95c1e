import { batchCost } from './length-batches.js';

/** Characters per token assumed before tokenizing: cautious (English prose runs ~4, code and other scripts less). */
const CHARS_PER_TOKEN = 3;
/** Recent requests the pace is taken from. */
const WINDOW = 32;

/**
 * A scorer's cost estimate, in seconds, for the planner: its own measured pace (seconds per unit of `batchCost`,
 * which counts the attention term) times the units a request would take, the pair lengths estimated from characters.
 * The pace is taken from the scorer's recent requests on this machine, so it needs no per-model constant; before the
 * first request there is no estimate (the deadline still bounds that one).
 */
export class CostMeter {
  readonly #samples: { units: number; seconds: number }[] = [];

  constructor(
    private readonly maxLength: number,
    private readonly hiddenSize: number | undefined,
  ) {}

  /** Units of the pairs as tokenized (their real lengths). */
  unitsOf(lengths: readonly number[]): number {
    let units = 0;
    for (const length of lengths) units += batchCost(1, length, this.hiddenSize);
    return units;
  }

  record(lengths: readonly number[], seconds: number): void {
    const units = this.unitsOf(lengths);
    if (units <= 0 || !Number.isFinite(seconds) || seconds < 0) return;
    this.#samples.push({ units, seconds });
    if (this.#samples.length > WINDOW) this.#samples.shift();
  }

  /** Seconds scoring these texts would take at the recent pace; undefined before any request was measured. Linear in the characters. */
  estimateSeconds(query: string, documents: readonly string[]): number | undefined {
    let units = 0;
    let seconds = 0;
    for (const sample of this.#samples) {
      units += sample.units;
      seconds += sample.seconds;
    }
    if (units === 0) return undefined;
    const lengths = documents.map((document) => Math.min(this.maxLength, Math.ceil((query.length + document.length) / CHARS_PER_TOKEN) + 4));
    return this.unitsOf(lengths) * (seconds / units);
  }
}
