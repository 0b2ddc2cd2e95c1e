import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOTS = ['shared', 'functions', 'scripts', 'infra'];
/** Static relative imports and re-exports (`import(...)` is left out: a lazy import is how a slice avoids loading a model). */
const STATIC_IMPORT = /^(?:import|export)\s[^;]*?from\s+'(\.[^']+)'/gms;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

function importGraph(): Map<string, string[]> {
  const files = new Set(ROOTS.flatMap(sourceFiles).map((f) => normalize(f)));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = [...readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)]
      .map((m) => normalize(join(dirname(file), (m[1] ?? '').replace(/\.js$/, '.ts'))))
      .filter((target) => files.has(target));
    graph.set(file, targets);
  }
  return graph;
}

/** Tarjan's strongly connected components of more than one file: each is an import cycle. */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (let w = stack.pop(); w !== undefined; w = stack.pop()) {
      onStack.delete(w);
      component.push(w);
      if (w === v) break;
    }
    if (component.length > 1) found.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

describe('imports', () => {
  it('form no file-level cycle in shared/, functions/, scripts/ or infra/', () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(300);
    expect(cycles(graph)).toStrictEqual([]);
  });

  it("keep the authorizer's and the dead-letter consumer's slices of the runtime free of models (no static path to shared/scoring/)", () => {
    const graph = importGraph();
    const reachable = (entry: string): Set<string> => {
      const seen = new Set<string>();
      const todo = [normalize(entry)];
      for (let file = todo.pop(); file !== undefined; file = todo.pop()) {
        if (seen.has(file)) continue;
        seen.add(file);
        todo.push(...(graph.get(file) ?? []));
      }
      return seen;
    };
    for (const entry of ['functions/authorizer/handler.ts', 'functions/workers/dead-letter.ts']) {
      const files = [...reachable(entry)];
      expect(files.length).toBeGreaterThan(3);
      expect(files.filter((f) => f.startsWith(normalize('shared/scoring/')) || f.endsWith('service-runtime.ts'))).toStrictEqual([]);
    }
  });

  it('are read by this check: a cycle between two files is found', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['a.ts']],
      ['c.ts', ['a.ts']],
    ]);
    expect(cycles(graph)).toStrictEqual([['a.ts', 'b.ts']]);
  });
});
