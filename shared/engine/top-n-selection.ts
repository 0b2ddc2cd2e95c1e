import type { ScoreActivation } from '../core/rerank-request.js';
import { activate } from '../core/score-activation.js';

interface Candidate {
  readonly index: number;
  readonly raw: number;
  /** The score normalizeResults ranks by (after the activation). */
  readonly key: number;
}

/** normalizeResults' order: NaN last, higher first, ties to the lower index. Negative = a ranks before b. */
function ranksBefore(a: Candidate, b: Candidate): boolean {
  const aNaN = Number.isNaN(a.key);
  const bNaN = Number.isNaN(b.key);
  if (aNaN !== bNaN) return bNaN;
  if (!aNaN && a.key !== b.key) return a.key > b.key;
  return a.index < b.index;
}

/**
 * Keeps the best `capacity` scores of a stream in a bounded heap (worst at the root), in the exact order
 * normalizeResults ranks by, so memory is O(top_n) however many candidates stream past. The survivors then
 * go through normalizeResults itself (`selected()`), which makes the final order, top_n and threshold.
 */
export class TopNSelection {
  readonly #heap: Candidate[] = [];
  readonly #capacity: number;
  readonly #activation: ScoreActivation;
  readonly #threshold: number | undefined;

  constructor(options: { readonly capacity: number; readonly activation: ScoreActivation; readonly threshold: number | undefined }) {
    this.#capacity = Math.max(0, options.capacity);
    this.#activation = options.activation;
    this.#threshold = options.threshold;
  }

  offer(index: number, raw: number): void {
    const key = activate(this.#activation, raw);
    // normalizeResults drops what scores below the threshold (NaN included) before top_n.
    if (this.#threshold !== undefined && !(key >= this.#threshold)) return;
    const candidate = { index, raw, key };
    const heap = this.#heap;
    if (heap.length < this.#capacity) {
      heap.push(candidate);
      this.#up(heap.length - 1);
    } else if (heap.length > 0 && ranksBefore(candidate, heap[0] as Candidate)) {
      heap[0] = candidate;
      this.#down(0);
    }
  }

  /** The kept candidates in input (index) order: what to hand normalizeResults, with their global indices. */
  selected(): { indices: number[]; rawScores: number[] } {
    const sorted = [...this.#heap].sort((a, b) => a.index - b.index);
    return { indices: sorted.map((c) => c.index), rawScores: sorted.map((c) => c.raw) };
  }

  /** Root = the worst kept: a child that ranks after its parent moves up. */
  #up(at: number): void {
    const heap = this.#heap;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!ranksBefore(heap[parent] as Candidate, heap[at] as Candidate)) break;
      [heap[parent], heap[at]] = [heap[at] as Candidate, heap[parent] as Candidate];
      at = parent;
    }
  }

  #down(at: number): void {
    const heap = this.#heap;
    for (;;) {
      const left = 2 * at + 1;
      const right = left + 1;
      let worst = at;
      if (left < heap.length && ranksBefore(heap[worst] as Candidate, heap[left] as Candidate)) worst = left;
      if (right < heap.length && ranksBefore(heap[worst] as Candidate, heap[right] as Candidate)) worst = right;
      if (worst === at) return;
      [heap[worst], heap[at]] = [heap[at] as Candidate, heap[worst] as Candidate];
      at = worst;
    }
  }
}
