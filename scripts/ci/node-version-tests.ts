import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import ts from 'typescript';
import { listFiles } from '../support/list-files.js';

/**
 * Which test files to run again on the Node major the Lambda functions run: those whose code can behave differently
 * on another Node version - the function entry points (functions/), worker threads, onnxruntime-node's native
 * binding, and the AWS SDK. Computed from each test file's static import closure (relative imports, re-exports and
 * string-literal dynamic imports, followed through test/, scripts/ and shared/), never from a hand-kept list: a new
 * test that reaches any of them is in the Node-24 run the day it is written.
 */
export const NODE_VERSION_SENSITIVE: readonly {
  readonly why: string;
  readonly matches: (specifier: string, resolvedFile: string | undefined) => boolean;
}[] = [
  { why: 'function entry points', matches: (_s, file) => file !== undefined && /(^|\/)functions\//.test(file) },
  // The functions as esbuild bundles them, imported by path at run time (no static import reaches functions/).
  { why: 'Lambda bundles of the function entry points', matches: (_s, file) => file === 'test/infra/support/invoke-bundle.ts' },
  { why: 'worker threads', matches: (s) => s === 'node:worker_threads' || s === 'worker_threads' },
  { why: 'onnxruntime-node', matches: (s) => s === 'onnxruntime-node' || s.startsWith('onnxruntime-node/') },
  { why: 'the AWS SDK', matches: (s) => s.startsWith('@aws-sdk/') || s.startsWith('@smithy/') },
];

/** The specifiers a file imports at run time: static imports, re-exports and `import('literal')`; `import type` erased. */
function importsOf(text: string): string[] {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.filter((f) => {
      // The statement's keyword: the last `import` or `export` before the specifier (statements may span lines).
      const start = Math.max(text.lastIndexOf('import', f.pos), text.lastIndexOf('export', f.pos));
      return !/^(import|export)\s+type\b/.test(text.slice(start, f.pos));
    })
    .map((f) => f.fileName);
}

/** A relative specifier resolved to the .ts file it names (`./x.js` -> `./x.ts`), or undefined for a package. */
function resolveRelative(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  for (const candidate of [base.replace(/\.js$/, '.ts'), base, `${base}.ts`, resolve(base, 'index.ts')]) {
    if (candidate.endsWith('.ts') && existsSync(candidate)) return candidate;
  }
  return undefined;
}

/**
 * A test that runs function code the import graph cannot see (a Lambda bundle built by esbuild, then imported) says
 * so in a comment: `@node-version-sensitive <why>`.
 */
const MARKER = /^\s*(?:\/\/|\/?\*+)\s*@node-version-sensitive\s+([^\n*]+)/m;

/** Why `testFile` is Node-version sensitive (the first reason found, with the module that brings it), or undefined. */
export function nodeVersionReason(root: string, testFile: string, graph = new ImportGraph(root)): string | undefined {
  const marked = MARKER.exec(readFileSync(resolve(root, testFile), 'utf8'));
  if (marked) return `marked: ${(marked[1] as string).trim()}`;
  return graph.reason(resolve(root, testFile));
}

/** Each module's imports, read and resolved once: test files share most of their closures (the runtime, the adapters). */
export class ImportGraph {
  readonly #edges = new Map<string, readonly { readonly specifier: string; readonly target: string | undefined }[]>();
  constructor(readonly root: string) {}

  #importsOf(file: string) {
    let edges = this.#edges.get(file);
    if (edges === undefined) {
      edges = importsOf(readFileSync(file, 'utf8')).map((specifier) => ({ specifier, target: resolveRelative(file, specifier) }));
      this.#edges.set(file, edges);
    }
    return edges;
  }

  /** The first sensitive import in `file`'s closure, breadth first (so the reason names the nearest one). */
  reason(file: string): string | undefined {
    const seen = new Set([file]);
    const queue = [file];
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      for (const { specifier, target } of this.#importsOf(next)) {
        const hit = NODE_VERSION_SENSITIVE.find((s) =>
          s.matches(specifier, target === undefined ? undefined : relative(this.root, target)),
        );
        if (hit) return `${hit.why} (${relative(this.root, next)} imports ${specifier})`;
        if (target !== undefined && !seen.has(target)) {
          seen.add(target);
          queue.push(target);
        }
      }
    }
    return undefined;
  }
}

/** Every `*.test.ts` under `dir` of `root`, relative to the root, sorted. */
export function listTestFiles(root: string, dir = 'test'): string[] {
  return listFiles(root, [dir], (name) => name.endsWith('.test.ts'));
}

/** The test files the Node-24 run takes, each with why. */
export function nodeVersionTests(root: string): { readonly file: string; readonly why: string }[] {
  const graph = new ImportGraph(root);
  return listTestFiles(root).flatMap((file) => {
    const why = nodeVersionReason(root, file, graph);
    return why === undefined ? [] : [{ file, why }];
  });
}
