/**
 * Finds which of many terms occur in a text in one pass over the text (Aho-Corasick), so the boost
 * strategy costs O(text + terms) per document instead of O(terms x text). Terms and texts are compared
 * as given: callers lower-case both.
 */
export class BoostTermMatcher {
  /** goto[node]: next node by UTF-16 code unit. */
  readonly #goto: Map<number, number>[] = [new Map()];
  readonly #fail: number[] = [0];
  /** How many terms (duplicates included) end exactly at this node. */
  readonly #weight: number[] = [0];
  /** The nearest node on the failure chain (excluding itself) where a term ends; -1 = none. */
  readonly #outputLink: number[] = [-1];
  /** Per-node stamp of the last text that counted it, so each term counts once per text. */
  #seen: Int32Array = new Int32Array(1);
  #epoch = 0;
  readonly termCount: number;

  constructor(terms: readonly string[]) {
    this.termCount = terms.length;
    for (const term of terms) this.#add(term);
    this.#link();
    this.#seen = new Int32Array(this.#goto.length);
  }

  /** How many of the terms (duplicates counted as given) occur in `text` as substrings. */
  countContained(text: string): number {
    const epoch = ++this.#epoch;
    let state = 0;
    let count = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      let next = this.#goto[state]?.get(c);
      while (next === undefined && state !== 0) {
        state = this.#fail[state] as number;
        next = this.#goto[state]?.get(c);
      }
      state = next ?? 0;
      // Walk the terms ending here; stop at a node already counted for this text (its chain was too).
      let node = (this.#weight[state] as number) > 0 ? state : (this.#outputLink[state] as number);
      while (node !== -1 && this.#seen[node] !== epoch) {
        this.#seen[node] = epoch;
        count += this.#weight[node] as number;
        node = this.#outputLink[node] as number;
      }
    }
    return count;
  }

  #add(term: string): void {
    let node = 0;
    for (let i = 0; i < term.length; i++) {
      const c = term.charCodeAt(i);
      const edges = this.#goto[node] as Map<number, number>;
      let next = edges.get(c);
      if (next === undefined) {
        next = this.#goto.length;
        this.#goto.push(new Map());
        this.#fail.push(0);
        this.#weight.push(0);
        this.#outputLink.push(-1);
        edges.set(c, next);
      }
      node = next;
    }
    this.#weight[node] = (this.#weight[node] as number) + 1;
  }

  /** Breadth-first: failure links and output links from shorter suffixes to longer ones. */
  #link(): void {
    const queue: number[] = [];
    for (const child of (this.#goto[0] as Map<number, number>).values()) queue.push(child);
    for (let head = 0; head < queue.length; head++) {
      const node = queue[head] as number;
      for (const [c, child] of this.#goto[node] as Map<number, number>) {
        let f = this.#fail[node] as number;
        while (f !== 0 && !(this.#goto[f] as Map<number, number>).has(c)) f = this.#fail[f] as number;
        const target = (this.#goto[f] as Map<number, number>).get(c);
        const failTo = target !== undefined && target !== child ? target : 0;
        this.#fail[child] = failTo;
        this.#outputLink[child] = (this.#weight[failTo] as number) > 0 ? failTo : (this.#outputLink[failTo] as number);
        queue.push(child);
      }
    }
  }
}
