import type { EmulatorHandle } from './emulator-handle.js';

/**
 * Both servers, or neither: when one fails to start (moto not ready in time on a loaded machine), the one that did
 * start is stopped before the error goes up - Promise.all would leave it running with nobody holding its PID.
 */
export async function bothOrNeither(a: Promise<EmulatorHandle>, b: Promise<EmulatorHandle>): Promise<[EmulatorHandle, EmulatorHandle]> {
  const [first, second] = await Promise.allSettled([a, b]);
  if (first.status === 'fulfilled' && second.status === 'fulfilled') return [first.value, second.value];
  await Promise.allSettled([first, second].flatMap((r) => (r.status === 'fulfilled' ? [r.value.stop()] : [])));
  throw (first.status === 'rejected' ? first.reason : (second as PromiseRejectedResult).reason) as Error;
}
