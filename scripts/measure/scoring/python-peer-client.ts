import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createInterface, type Interface } from 'node:readline';

/** The interpreter of the Python peers: BENCH_PYTHON, else the ML venv when present, else python3. */
export function benchPython(env: NodeJS.ProcessEnv = process.env): string {
  return env['BENCH_PYTHON'] ?? (existsSync('/tmp/mlvenv/bin/python') ? '/tmp/mlvenv/bin/python' : 'python3');
}

export interface PeerRun {
  readonly seconds: number;
  readonly tokenizeSeconds: number | null;
  readonly checksum: number;
}

/** Talks JSON lines to scripts/measure/scoring/python-peers.py (one long-lived process, so runs can interleave with ours). */
export class PythonPeerClient {
  private readonly exited: Promise<never>;

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    private readonly lines: Interface,
    private readonly iterator: AsyncIterator<string>,
  ) {
    this.exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`python peer exited (${code})`))));
    this.exited.catch(() => undefined); // only a pending ask() cares
  }

  static start(python: string, script: string): PythonPeerClient {
    const child = spawn(python, [script], { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, TOKENIZERS_PARALLELISM: 'true' } });
    child.stderr.resume(); // progress bars and warnings; not ours to print
    const lines = createInterface({ input: child.stdout });
    return new PythonPeerClient(child, lines, lines[Symbol.asyncIterator]());
  }

  async ask<T>(request: Record<string, unknown>): Promise<T> {
    this.child.stdin.write(`${JSON.stringify(request)}\n`);
    const next = await Promise.race([this.iterator.next(), this.exited]);
    if (next.done === true) throw new Error('python peer closed its output');
    const reply = JSON.parse(next.value) as T & { error?: string };
    if (reply.error !== undefined) throw new Error(`python peer: ${reply.error}`);
    return reply;
  }

  async close(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    this.child.stdin.end(`${JSON.stringify({ cmd: 'quit' })}\n`);
    this.lines.close();
    await exited;
  }
}
