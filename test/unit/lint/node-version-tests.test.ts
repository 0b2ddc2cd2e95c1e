import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { nodeVersionReason, nodeVersionTests } from '../../../scripts/ci/node-version-tests.js';

// The Node-24 run (scripts/ci/test-on-lambda-node.sh) takes the tests whose code can differ by Node version, picked
// from their import graphs: these check that the picking sees through helpers, and leaves pure code to one run.
const ROOT = resolve(import.meta.dirname, '../../..');
const scratch = mkdtempSync(join(tmpdir(), 'rerank-node-version-'));

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(scratch, 'repo-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('the tests the Node-24 run takes', () => {
  it('follows imports, re-exports and dynamic imports to what differs by Node version', () => {
    const root = tree({
      'test/a.test.ts': "import { x } from '../shared/scoring/runner.js';\n",
      'shared/scoring/runner.ts': "export * from './pool.js';\n",
      'shared/scoring/pool.ts': "import { Worker } from 'node:worker_threads';\nexport const x = Worker;\n",
      'test/b.test.ts': "const m = await import('../functions/api/handler.js');\n",
      'functions/api/handler.ts': 'export const handler = 1;\n',
      'test/c.test.ts': "import { S3Client } from '@aws-sdk/client-s3';\n",
      'test/d.test.ts': "import { InferenceSession } from 'onnxruntime-node';\n",
      'test/e.test.ts': "import { pure } from '../shared/core/pure.js';\nimport type { T } from '@aws-sdk/client-s3';\n",
      'shared/core/pure.ts': 'export const pure = 1;\n',
      'test/f.test.ts': '/**\n * @node-version-sensitive imports an esbuild bundle by path\n */\n',
    });
    expect(nodeVersionReason(root, 'test/a.test.ts')).toBe('worker threads (shared/scoring/pool.ts imports node:worker_threads)');
    expect(nodeVersionReason(root, 'test/b.test.ts')).toMatch(/^function entry points/);
    expect(nodeVersionReason(root, 'test/c.test.ts')).toMatch(/^the AWS SDK/);
    expect(nodeVersionReason(root, 'test/d.test.ts')).toMatch(/^onnxruntime-node/);
    // Type-only imports vanish at run time: they change nothing between Node versions.
    expect(nodeVersionReason(root, 'test/e.test.ts')).toBeUndefined();
    expect(nodeVersionReason(root, 'test/f.test.ts')).toBe('marked: imports an esbuild bundle by path');
  });

  it("takes this repo's function, worker, onnxruntime and AWS SDK tests, and not its pure ones", () => {
    const picked = new Set(nodeVersionTests(ROOT).map((t) => t.file));
    for (const file of [
      'test/integration/jobs/aws-job-flow.test.ts',
      'test/infra/lambda-bundle.test.ts',
      'test/unit/scoring/inference-worker/execution-plan-scores.slow.test.ts',
    ]) {
      expect(picked, file).toContain(file);
    }
    for (const file of ['test/unit/dialects/openai-dialect.test.ts', 'test/unit/lint/paths-inside-repo.test.ts'])
      expect(picked, file).not.toContain(file);
  });
});
