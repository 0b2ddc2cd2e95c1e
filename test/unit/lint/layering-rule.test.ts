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
  it(
    'fails an upward import: core importing a scorer, openapi importing the HTTP layer, runtime importing http',
    async () => {
      expect(
        await layeringErrors('shared/core/fixture.ts', "import type { X } from '../scoring/onnx-cross-encoder.js';\nexport type Y = X;\n"),
      ).toEqual([expect.stringMatching(/core may import only itself/)]);
      expect(await layeringErrors('shared/openapi/fixture.ts', "export { API_ROUTES } from '../http/api-routes.js';\n")).toHaveLength(1);
      expect(await layeringErrors('shared/runtime/deep/fixture.ts', "import '../../http/api-app.js';\n")).toHaveLength(1);
      expect(await layeringErrors('functions/api/fixture.ts', "import '../../shared/client/index.js';\n")).toHaveLength(1);
    },
    SLOW,
  );

  it(
    'keeps library code from importing entry points and tools, and infra from building a service at synth',
    async () => {
      expect(await layeringErrors('shared/core/fixture.ts', "import '../../scripts/serve/dev-server.js';\n")).toEqual([
        expect.stringMatching(/core is library code: it never imports infra, scripts, test/),
      ]);
      expect(await layeringErrors('shared/scoring/lexical/fixture.ts', "import '../../../test/support/test-runtime.js';\n")).toHaveLength(
        1,
      );
      expect(await layeringErrors('infra/constructs/fixture.ts', "import '../../shared/runtime/service-runtime.js';\n")).toEqual([
        expect.stringMatching(/infra may not import shared\/runtime/),
      ]);
      expect(await layeringErrors('infra/fixture.ts', "import '../functions/api/handler.js';\n")).toHaveLength(1);
      expect(await layeringErrors('scripts/measure/scoring/fixture.ts', "import '../../infra/app.js';\n")).toHaveLength(1);
      // What infra legitimately reads: the route table, table keys, config and the model pull.
      expect(
        await layeringErrors(
          'infra/constructs/fixture.ts',
          "import '../../shared/http/api-routes.js';\nimport '../../shared/config/lambda-vcpus.js';\n",
        ),
      ).toEqual([]);
    },
    SLOW,
  );

  it(
    'lets imports point down and stay inside a module',
    async () => {
      expect(
        await layeringErrors(
          'shared/http/fixture.ts',
          "import '../runtime/service-runtime.js';\nimport '../core/scorer.js';\nimport './api-routes.js';\n",
        ),
      ).toEqual([]);
      expect(
        await layeringErrors('shared/scoring/hybrid/fixture.ts', "import '../../core/scorer.js';\nimport '../lexical/index.js';\n"),
      ).toEqual([]);
    },
    SLOW,
  );
});
