import { spawn } from 'node:child_process';
import { openSync, closeSync } from 'node:fs';
import type { EmulatorHandle, StartEmulatorOptions } from './emulator-handle.js';

interface SpawnServerSpec {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd?: string;
  readonly endpoint: string;
  /** Resolves true once the server answers a real protocol call. */
  readonly probe: () => Promise<boolean>;
}

/**
 * Spawns a server process (never via a shell, so the PID is the server's own), waits until `probe` succeeds,
 * and returns a handle whose stop() kills exactly that PID. If the process dies first, the error carries its output.
 */
export async function spawnServer(spec: SpawnServerSpec, options: StartEmulatorOptions = {}): Promise<EmulatorHandle> {
  const logFd = options.detachedLogFile === undefined ? undefined : openSync(options.detachedLogFile, 'a');
  const child = spawn(spec.command, spec.args, {
    cwd: spec.cwd,
    detached: logFd !== undefined,
    stdio: logFd === undefined ? ['ignore', 'pipe', 'pipe'] : ['ignore', logFd, logFd],
  });
  if (logFd !== undefined) closeSync(logFd);
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString('utf8')).slice(-4000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let spawnError: Error | undefined;
  child.once('error', (error) => (spawnError = error));

  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };

  const deadline = Date.now() + (options.readyTimeoutMs ?? 60_000);
  for (;;) {
    const dead = spawnError !== undefined || child.exitCode !== null || child.signalCode !== null;
    if (dead) {
      throw new Error(`${spec.name} exited before it was ready (${spawnError?.message ?? `code ${child.exitCode}`}):\n${output}`);
    }
    if (await spec.probe().catch(() => false)) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`${spec.name} not ready at ${spec.endpoint} within ${options.readyTimeoutMs ?? 60_000} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (logFd !== undefined) child.unref();
  // Ready: stop buffering output nobody will read.
  child.stdout?.removeListener('data', keep).resume();
  child.stderr?.removeListener('data', keep).resume();
  return { endpoint: spec.endpoint, pid: child.pid as number, stop };
}
