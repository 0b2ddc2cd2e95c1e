/** One scored candidate: the score read as a probability, and whether the candidate is relevant. */
export interface ScoredLabel {
  readonly score: number;
  readonly relevant: boolean;
}

export interface ReliabilityBin {
  /** [lower, upper) of scores; the last bin includes 1. */
  readonly lower: number;
  readonly upper: number;
  readonly count: number;
  /** Mean score in the bin (the predicted probability). */
  readonly confidence: number;
  /** Share of relevant candidates in the bin (the observed frequency). */
  readonly accuracy: number;
}

/** Equal-width bins over [0, 1]; scores outside are clamped to the end bins. */
export function reliabilityBins(points: readonly ScoredLabel[], bins = 10): ReliabilityBin[] {
  const sums = Array.from({ length: bins }, () => ({ count: 0, score: 0, relevant: 0 }));
  for (const p of points) {
    const s = Math.min(1, Math.max(0, p.score));
    const bin = sums[Math.min(bins - 1, Math.floor(s * bins))]!;
    bin.count++;
    bin.score += s;
    bin.relevant += p.relevant ? 1 : 0;
  }
  return sums.map((b, i) => ({
    lower: i / bins,
    upper: (i + 1) / bins,
    count: b.count,
    confidence: b.count === 0 ? 0 : b.score / b.count,
    accuracy: b.count === 0 ? 0 : b.relevant / b.count,
  }));
}

/** Expected calibration error: sum over bins of (bin share) x |observed frequency - mean score|. */
export function expectedCalibrationError(points: readonly ScoredLabel[], bins = 10): number {
  if (points.length === 0) return 0;
  return reliabilityBins(points, bins).reduce((sum, b) => sum + (b.count / points.length) * Math.abs(b.accuracy - b.confidence), 0);
}

/** True when every score can be read as a probability (finite, within [0, 1]). */
export const isProbabilityScale = (points: readonly ScoredLabel[]): boolean =>
  points.every((p) => Number.isFinite(p.score) && p.score >= 0 && p.score <= 1);

/**
 * A reliability diagram as a standalone SVG: observed frequency against mean score per bin, one
 * polyline per series (circle area ~ bin size), with the diagonal a perfectly calibrated model follows.
 */
export function reliabilitySvg(
  title: string,
  series: ReadonlyArray<{ name: string; color: string; bins: readonly ReliabilityBin[] }>,
): string {
  const size = 260;
  const pad = 36;
  const x = (v: number): number => pad + v * size;
  const y = (v: number): number => pad + (1 - v) * size;
  const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${size + 2 * pad + 140}" height="${size + 2 * pad}" font-family="sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="${pad}" y="16" font-size="13">${esc(title)}</text>`,
    `<rect x="${pad}" y="${pad}" width="${size}" height="${size}" fill="none" stroke="#999"/>`,
    `<line x1="${x(0)}" y1="${y(0)}" x2="${x(1)}" y2="${y(1)}" stroke="#bbb" stroke-dasharray="4 3"/>`,
    ...[0, 0.5, 1].flatMap((v) => [
      `<text x="${x(v)}" y="${pad + size + 14}" text-anchor="middle">${v}</text>`,
      `<text x="${pad - 6}" y="${y(v) + 4}" text-anchor="end">${v}</text>`,
    ]),
    `<text x="${pad + size / 2}" y="${pad + size + 28}" text-anchor="middle">mean score in bin</text>`,
    `<text x="12" y="${pad + size / 2}" transform="rotate(-90 12 ${pad + size / 2})" text-anchor="middle">share relevant</text>`,
  ];
  series.forEach((s, i) => {
    const used = s.bins.filter((b) => b.count > 0);
    const total = used.reduce((n, b) => n + b.count, 0);
    parts.push(
      `<polyline fill="none" stroke="${s.color}" stroke-width="1.5" points="${used.map((b) => `${x(b.confidence).toFixed(1)},${y(b.accuracy).toFixed(1)}`).join(' ')}"/>`,
    );
    for (const b of used)
      parts.push(
        `<circle cx="${x(b.confidence).toFixed(1)}" cy="${y(b.accuracy).toFixed(1)}" r="${(2 + 10 * Math.sqrt(b.count / total)).toFixed(1)}" fill="${s.color}" fill-opacity="0.35"/>`,
      );
    parts.push(`<rect x="${pad + size + 14}" y="${pad + 4 + 18 * i}" width="10" height="10" fill="${s.color}"/>`);
    parts.push(`<text x="${pad + size + 30}" y="${pad + 13 + 18 * i}">${esc(s.name)}</text>`);
  });
  parts.push('</svg>');
  return parts.join('\n') + '\n';
}
