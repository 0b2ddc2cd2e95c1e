import { describe, expect, it } from 'vitest';
import { CostMeter } from '../../../shared/scoring/cost-meter.js';
import { batchCost } from '../../../shared/scoring/length-batches.js';

describe('CostMeter', () => {
  it('has no estimate before it has measured anything', () => {
    expect(new CostMeter(512, 384).estimateSeconds('q', ['a document'])).toBeUndefined();
  });

  it('prices a request at the measured pace, with the attention term and the token window', () => {
    const meter = new CostMeter(512, 384);
    meter.record([100, 100], 2 * batchCost(1, 100, 384) * 0.001); // 1 ms per unit
    const short = meter.estimateSeconds('', ['x'.repeat(296)])!; // ceil(296 / 3) + 4 = 103 tokens
    expect(short).toBeCloseTo(batchCost(1, 103, 384) * 0.001, 9);
    const long = meter.estimateSeconds('', ['x'.repeat(100_000)])!; // capped at the window
    expect(long).toBeCloseTo(batchCost(1, 512, 384) * 0.001, 9);
    expect(meter.estimateSeconds('', ['x'.repeat(296), 'x'.repeat(296)])).toBeCloseTo(2 * short, 9);
  });

  it("prices by the load's warm-up pair until the first real request replaces it", () => {
    const meter = new CostMeter(512, 384);
    meter.record([128], batchCost(1, 128, 384) * 0.002, true); // warm-up: 2 ms per unit
    const pair = 'x'.repeat(296); // 103 tokens
    expect(meter.estimateSeconds('', [pair])).toBeCloseTo(batchCost(1, 103, 384) * 0.002, 9);
    meter.record([100], batchCost(1, 100, 384) * 0.001); // a real request: 1 ms per unit, the warm-up no longer counts
    expect(meter.estimateSeconds('', [pair])).toBeCloseTo(batchCost(1, 103, 384) * 0.001, 9);
    meter.record([128], batchCost(1, 128, 384) * 0.05, true); // a later warm-up never outweighs real requests
    expect(meter.estimateSeconds('', [pair])).toBeCloseTo(batchCost(1, 103, 384) * 0.001, 9);
  });

  it('follows the recent pace', () => {
    const meter = new CostMeter(512, undefined);
    for (let i = 0; i < 40; i++) meter.record([50], 10); // slow, long ago
    for (let i = 0; i < 32; i++) meter.record([50], 1);
    expect(meter.estimateSeconds('', ['x'.repeat(138)])).toBeCloseTo(1, 9); // 138 / 3 + 4 = 50 tokens: one recent pair's cost
  });
});
