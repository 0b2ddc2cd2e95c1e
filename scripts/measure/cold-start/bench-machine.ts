import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/** The CPU features that decide which ONNX Runtime kernels run (int8 GEMMs above all). */
export const CPU_FLAGS = ['avx2', 'avx512f', 'avx512_vnni', 'avx512_bf16', 'amx_tile', 'amx_int8', 'amx_bf16'] as const;

export interface BenchMachine {
  readonly cpuModel: string;
  readonly cpus: number;
  /** Each of CPU_FLAGS: present on every listed processor. */
  readonly flags: Readonly<Record<(typeof CPU_FLAGS)[number], boolean>>;
}

/** Model name and flags of /proc/cpuinfo's first processor (Linux); 'unknown' elsewhere. */
export function parseCpuInfo(cpuinfo: string): Omit<BenchMachine, 'cpus'> {
  const field = (name: string): string | undefined =>
    cpuinfo
      .split('\n')
      .find((line) => line.startsWith(name))
      ?.split(':')
      .slice(1)
      .join(':')
      .trim();
  const flags = new Set((field('flags') ?? '').split(/\s+/));
  return {
    cpuModel: field('model name') ?? 'unknown',
    flags: Object.fromEntries(CPU_FLAGS.map((flag) => [flag, flags.has(flag)])) as BenchMachine['flags'],
  };
}

export function benchMachine(): BenchMachine {
  let cpuinfo = '';
  try {
    cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
  } catch {
    // not Linux: the report says unknown
  }
  return { ...parseCpuInfo(cpuinfo), cpus: availableParallelism() };
}

/** `uptime`'s line (load averages over 1, 5, 15 minutes), as the report quotes it. */
export function uptimeLine(): string {
  try {
    return execFileSync('uptime', { encoding: 'utf8' }).trim();
  } catch {
    return 'uptime unavailable';
  }
}
