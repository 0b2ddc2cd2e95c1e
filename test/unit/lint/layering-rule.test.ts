import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

// The project's own eslint.config.js, on virtual files: the layering rule must catch an upward import.
const eslint = new ESLint({ cwd: process.cwd() });

// Loading the TypeScript parser and config takes seconds on a busy machine.
const SLOW = 60_000;

async function layeringErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('the layering lint rule', () => {
  it('fails an upward import: core importing a scorer, openapi importing the HTTP layer, runtime importing http', async () => {
    expect(await layeringErrors('shared/core/fixture.ts', "import type { X } from '../scoring/onnx-cross-encoder.js';\nexport type Y = X;\n")).toEqual([
      expect.stringMatching(/core may import only itself/),
    ]);
    expect(await layeringErrors('shared/openapi/fixture.ts', "export { API_ROUTES } from '../http/api-routes.js';\n")).toHaveLength(1);
    expect(await layeringErrors('shared/runtime/deep/fixture.ts', "import '../../http/api-app.js';\n")).toHaveLength(1);
    expect(await layeringErrors('functions/api/fixture.ts', "import '../../shared/client/index.js';\n")).toHaveLength(1);
  }, SLOW);

  it('lets imports point down and stay inside a module', async () => {
    expect(await layeringErrors('shared/http/fixture.ts', "import '../runtime/service-runtime.js';\nimport '../core/scorer.js';\nimport './api-routes.js';\n")).toEqual([]);
    expect(await layeringErrors('shared/scoring/hybrid/fixture.ts', "import '../../core/scorer.js';\nimport '../lexical/index.js';\n")).toEqual([]);
  }, SLOW);
});
