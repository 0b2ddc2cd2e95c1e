// The evaluation's calibration metrics (scripts/eval/calibration.ts), next to its ranking metrics' tests.
import { describe, expect, it } from 'vitest';
import { expectedCalibrationError, isProbabilityScale, reliabilityBins, reliabilitySvg } from '../../../../scripts/eval/calibration.js';

const points = (score: number, relevant: number, total: number) =>
  Array.from({ length: total }, (_, i) => ({ score, relevant: i < relevant }));

describe('expectedCalibrationError', () => {
  it('is 0 when each bin observes what it predicts, and the weighted gap otherwise', () => {
    expect(expectedCalibrationError([...points(0.05, 1, 20), ...points(0.75, 3, 4)])).toBeCloseTo(0, 12);
    // 10 points at 0.9 with 5 relevant: gap 0.4 on all of them.
    expect(expectedCalibrationError(points(0.9, 5, 10))).toBeCloseTo(0.4, 12);
    expect(expectedCalibrationError([])).toBe(0);
  });

  it('bins equal-width over [0, 1], 1 in the last bin, outside values clamped', () => {
    const bins = reliabilityBins([
      { score: 1, relevant: true },
      { score: -0.5, relevant: false },
      { score: 0.55, relevant: true },
    ]);
    expect(bins).toHaveLength(10);
    expect(bins[9]!.count).toBe(1);
    expect(bins[0]!.count).toBe(1);
    expect(bins[5]!).toMatchObject({ count: 1, accuracy: 1 });
    expect(isProbabilityScale([{ score: 1.5, relevant: false }])).toBe(false);
    expect(isProbabilityScale([{ score: 0.5, relevant: false }])).toBe(true);
  });

  it('draws a reliability plot as standalone SVG', () => {
    const svg = reliabilitySvg('m <1>', [{ name: 'held-out', color: '#000', bins: reliabilityBins(points(0.3, 1, 3)) }]);
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('m &lt;1>');
    expect(svg).toContain('<circle');
  });
});
