import { describe, expect, it } from 'vitest';
import { mapInSlices, SLICE_MS } from '../../../shared/scoring/map-in-slices.js';

/** Busy work of about `ms` milliseconds: what tokenizing a long text does to the event loop. */
const busy = (ms: number): void => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

describe('mapInSlices', () => {
  it('maps every item in order', async () => {
    expect(await mapInSlices([1, 2, 3], (n) => n * 2)).toEqual([2, 4, 6]);
    expect(await mapInSlices([], (n: number) => n)).toEqual([]);
  });

  it('lets a timer fire between slices of work that would otherwise hold the event loop', async () => {
    // Arrange: 12 items of 10 ms each, a timer due in 1 ms
    let fired = -1;
    let done = 0;
    setTimeout(() => (fired = done), 1);

    // Act
    await mapInSlices(Array.from({ length: 12 }), () => {
      busy(10);
      done++;
    });

    // Assert: the timer ran within two slices (a little over SLICE_MS of work each), not after all 120 ms. Two, because
    // a continuation after setImmediate runs in the check phase, which follows the poll phase (where a request's
    // handler starts) without passing the timers: from there a waiting timer or request gets in at the second yield.
    const itemsPerSlice = Math.ceil(SLICE_MS / 10) + 1;
    expect(fired).toBeGreaterThan(0);
    expect(fired).toBeLessThanOrEqual(2 * itemsPerSlice);
  });

  it('stops at the next yield once the signal is aborted', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('deadline')), 1);
    let done = 0;
    await expect(
      mapInSlices(
        Array.from({ length: 100 }),
        () => {
          busy(10);
          done++;
        },
        controller.signal,
      ),
    ).rejects.toThrow('deadline');
    expect(done).toBeLessThan(100);
  });
});
