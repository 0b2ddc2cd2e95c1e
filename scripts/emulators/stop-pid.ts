/**
 * Stops one process by its PID: SIGTERM, wait until it is gone, SIGKILL if it lingers.
 * Used by the CLI, whose servers were started by an earlier process and are not our children.
 */
export async function stopPid(pid: number, timeoutMs = 10_000): Promise<void> {
  if (!alive(pid)) return;
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + timeoutMs;
  while (alive(pid)) {
    if (Date.now() > deadline) {
      process.kill(pid, 'SIGKILL');
      await waitGone(pid, 5_000);
      return;
    }
    await sleep(50);
  }
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but is not ours - alive, and not something we may stop.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function waitGone(pid: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (alive(pid) && Date.now() < deadline) await sleep(50);
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
