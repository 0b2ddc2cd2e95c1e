/** How many faults of each kind a run injected, for the summary and the report. */
export class FaultCounts {
  readonly #counts = new Map<string, number>();

  add(kind: string, by = 1): void {
    this.#counts.set(kind, (this.#counts.get(kind) ?? 0) + by);
  }

  get(kind: string): number {
    return this.#counts.get(kind) ?? 0;
  }

  total(): number {
    return [...this.#counts.values()].reduce((a, b) => a + b, 0);
  }

  /** Sorted by kind, so reports from different runs line up. */
  entries(): [string, number][] {
    return [...this.#counts.entries()].sort(([a], [b]) => a.localeCompare(b));
  }
}
