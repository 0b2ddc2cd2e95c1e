import { availableParallelism } from 'node:os';

/** Lambda allocates one vCPU per 1,769 MB of memory, up to 6 at 10,240 MB. */
const LAMBDA_MB_PER_VCPU = 1769;
const LAMBDA_MAX_VCPUS = 6;

/** The vCPUs a Lambda function of this memory size runs on: the one formula infra and the runtime share. */
export function lambdaVcpus(memoryMb: number): number {
  return Math.min(LAMBDA_MAX_VCPUS, Math.max(1, Math.ceil(memoryMb / LAMBDA_MB_PER_VCPU)));
}

/**
 * Intra-op threads that match the CPUs this process really gets. On Lambda, os.availableParallelism()
 * reports the host's vCPUs even when the memory size buys a fraction of them, and oversubscribed ONNX
 * threads spin against each other; the memory size is the real budget there.
 */
export function defaultIntraOpThreads(env: NodeJS.ProcessEnv = process.env, cpus: number = availableParallelism()): number {
  const memoryMb = Number(env['AWS_LAMBDA_FUNCTION_MEMORY_SIZE']);
  if (!Number.isFinite(memoryMb) || memoryMb <= 0) return Math.max(1, cpus);
  return Math.min(Math.max(1, cpus), lambdaVcpus(memoryMb));
}
