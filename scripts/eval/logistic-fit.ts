/**
 * L2-regularised logistic regression by Newton's method (IRLS). Small and exact enough for a handful of
 * features and ~20k rows; the intercept is not penalised.
 */
export interface LogisticFit {
  readonly weights: number[];
  readonly bias: number;
}

const sigmoid = (z: number): number => (z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z)));

/** Solves A x = b for a small dense symmetric positive definite A (Gaussian elimination with pivoting). */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[pivot]![c]!)) pivot = r;
    [m[c], m[pivot]] = [m[pivot]!, m[c]!];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = m[r]![c]! / m[c]![c]!;
      for (let k = c; k <= n; k++) m[r]![k]! -= f * m[c]![k]!;
    }
  }
  return m.map((row, i) => row[n]! / row[i]!);
}

export function fitLogistic(rows: readonly (readonly number[])[], labels: readonly number[], lambda: number, iterations = 30): LogisticFit {
  const p = (rows[0]?.length ?? 0) + 1; // + intercept (last)
  let w = new Array<number>(p).fill(0);
  const x = (row: readonly number[], j: number): number => (j < p - 1 ? row[j]! : 1);
  for (let it = 0; it < iterations; it++) {
    const gradient = new Array<number>(p).fill(0);
    const hessian = Array.from({ length: p }, () => new Array<number>(p).fill(0));
    rows.forEach((row, i) => {
      let z = 0;
      for (let j = 0; j < p; j++) z += w[j]! * x(row, j);
      const prob = sigmoid(z);
      const r = prob - labels[i]!;
      const s = prob * (1 - prob);
      for (let j = 0; j < p; j++) {
        const xj = x(row, j);
        gradient[j]! += r * xj;
        for (let k = 0; k <= j; k++) hessian[j]![k]! += s * xj * x(row, k);
      }
    });
    for (let j = 0; j < p; j++) {
      for (let k = 0; k < j; k++) hessian[k]![j] = hessian[j]![k]!;
      if (j < p - 1) {
        gradient[j]! += lambda * w[j]!;
        hessian[j]![j]! += lambda;
      }
    }
    const step = solve(hessian, gradient);
    w = w.map((v, j) => v - step[j]!);
    if (Math.max(...step.map(Math.abs)) < 1e-9) break;
  }
  return { weights: w.slice(0, p - 1), bias: w[p - 1]! };
}

/** Mean negative log-likelihood of labels under the fit (lower is better). */
export function logLoss(fit: LogisticFit, rows: readonly (readonly number[])[], labels: readonly number[]): number {
  let total = 0;
  rows.forEach((row, i) => {
    let z = fit.bias;
    row.forEach((v, j) => (z += fit.weights[j]! * v));
    const prob = Math.min(1 - 1e-12, Math.max(1e-12, sigmoid(z)));
    total -= labels[i]! ? Math.log(prob) : Math.log(1 - prob);
  });
  return total / rows.length;
}

/** One query's candidates (feature rows) and which of them is relevant. */
export interface QueryGroup {
  readonly rows: readonly (readonly number[])[];
  readonly relevant: number;
}

/**
 * Conditional (listwise) logit: P(candidate i is the relevant one) = softmax_i(w . x_i) within its
 * query, fitted by Newton's method with an L2 penalty. It learns how to ORDER candidates of one query,
 * which a pointwise fit only does indirectly; there is no intercept (it cancels within a query).
 */
export function fitConditionalLogit(groups: readonly QueryGroup[], lambda: number, iterations = 30): number[] {
  const p = groups[0]?.rows[0]?.length ?? 0;
  let w = new Array<number>(p).fill(0);
  for (let it = 0; it < iterations; it++) {
    const gradient = w.map((v) => lambda * v);
    const hessian = Array.from({ length: p }, (_, j) => Array.from({ length: p }, (_, k) => (j === k ? lambda : 0)));
    for (const g of groups) {
      const z = g.rows.map((row) => row.reduce((s, v, j) => s + w[j]! * v, 0));
      const top = Math.max(...z);
      const e = z.map((v) => Math.exp(v - top));
      const total = e.reduce((s, v) => s + v, 0);
      const prob = e.map((v) => v / total);
      const mean = new Array<number>(p).fill(0);
      g.rows.forEach((row, i) => row.forEach((v, j) => (mean[j]! += prob[i]! * v)));
      g.rows.forEach((row, i) => {
        for (let j = 0; j < p; j++) {
          gradient[j]! += (prob[i]! - (i === g.relevant ? 1 : 0)) * row[j]!;
          for (let k = 0; k < p; k++) hessian[j]![k]! += prob[i]! * row[j]! * row[k]!;
        }
      });
      for (let j = 0; j < p; j++) for (let k = 0; k < p; k++) hessian[j]![k]! -= mean[j]! * mean[k]!;
    }
    const step = solve(hessian, gradient);
    w = w.map((v, j) => v - step[j]!);
    if (Math.max(...step.map(Math.abs)) < 1e-9) break;
  }
  return w;
}

/** Mean reciprocal rank of the relevant candidate when ordering by w . x (ties broken pessimistically). */
export function meanReciprocalRank(w: readonly number[], groups: readonly QueryGroup[]): number {
  let total = 0;
  for (const g of groups) {
    const z = g.rows.map((row) => row.reduce((s, v, j) => s + w[j]! * v, 0));
    const mine = z[g.relevant]!;
    const rank = 1 + z.filter((v, i) => i !== g.relevant && v >= mine).length;
    total += rank <= 10 ? 1 / rank : 0;
  }
  return total / groups.length;
}
