import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The API function's module as the bench loads it: the handler Lambda calls, plus the runtime builder the handler
 * awaits on its first invocation, exported only so the bench can time the model load apart from the request. Both
 * come from one bundle (one module instance), so the handler reuses the runtime the bench built. Written into the
 * checkout being measured, so a baseline checkout of an older commit is bundled the same way.
 */
const ENTRY_SOURCE = [
  "export { handler } from '../../functions/api/handler.js';",
  "export { serviceRuntime } from '../../shared/runtime/process-runtime.js';",
  '',
].join('\n');

const ENTRY = path.join('.tmp', 'cold-start', 'bench-entry.ts');
const OUTFILE = path.join('.tmp', 'cold-start', 'functions', 'api', 'handler.mjs');

export interface ColdStartBundle {
  readonly outfile: string;
  /** NODE_OPTIONS as the stack sets them on the scoring functions. */
  readonly nodeOptions: string;
}

/**
 * Bundles the API function of `checkout` as the stack does, by the bundling CLI of `toolRoot`'s infra/ (a baseline
 * checkout's own, so a change to the bundling options is measured as a change). onnxruntime-node stays external and resolves from the
 * checkout's node_modules, as the bundle's pruned copy of it resolves beside the bundle on Lambda.
 */
export function buildColdStartBundle(checkout: string, toolRoot: string): ColdStartBundle {
  mkdirSync(path.join(checkout, path.dirname(ENTRY)), { recursive: true });
  writeFileSync(path.join(checkout, ENTRY), ENTRY_SOURCE);
  const out = execFileSync(
    process.execPath,
    ['--import', 'tsx', path.join(toolRoot, 'infra', 'packaging', 'bundle-function-cli.ts'), checkout, ENTRY, OUTFILE],
    { cwd: toolRoot, encoding: 'utf8' },
  );
  return JSON.parse(out.trim().split('\n').pop()!) as ColdStartBundle;
}
