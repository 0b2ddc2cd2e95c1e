import { readFileSync } from 'node:fs';
import { dirname, join, posix, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { listFiles } from '../../scripts/support/list-files.js';

/**
 * Finds paths a source file builds that resolve above the repository root: a user's clone has nothing beside it, so a
 * test, script or library file that reads `../shared/...` (or any sibling of the checkout) works only on the
 * maintainers' machines. Static and conservative: a path is evaluated only when every part of it is known - string
 * literals, `import.meta.dirname` / `__dirname` / `new URL(.., import.meta.url)`, `process.cwd()` (the repo root when
 * tests and scripts run) and constants of the same file built from those. Anything else (os.tmpdir(), homedir(),
 * a caller's argument) is unknown and never reported: temp folders and the model cache are fine.
 */
export interface PathEscape {
  /** The file, relative to the root. */
  readonly file: string;
  readonly line: number;
  /** What the expression resolves to, relative to the root (starts with `..`). */
  readonly resolvesTo: string;
}

const SOURCE = /\.(ts|mts|js|mjs)$/;

/** Every source file (TypeScript/JavaScript, Python, shell) under `dirs` of `root`, as absolute paths. */
export function listSourceFiles(root: string, dirs: readonly string[]): string[] {
  return listFiles(root, dirs, (name) => SOURCE.test(name) || name.endsWith('.py') || name.endsWith('.sh')).map((file) =>
    resolve(root, file),
  );
}

const PATH_CALLS = new Set(['resolve', 'join']);
const ANCHORS = /import\.meta|__dirname|process\.cwd/;

/** The escapes in one TypeScript/JavaScript file's text (`file` is absolute; only its location is used). */
export function findTsEscapes(root: string, file: string, text: string): PathEscape[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const here = dirname(file);
  const constants = new Map<string, ts.Expression>();
  const visitConstants = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) constants.set(node.name.text, node.initializer);
    ts.forEachChild(node, visitConstants);
  };
  visitConstants(source);

  // undefined = not known statically; the evaluation never guesses.
  const evaluate = (node: ts.Expression, depth = 0): string | undefined => {
    if (depth > 20) return undefined;
    if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node)) return evaluate(node.expression, depth + 1);
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
    if (ts.isIdentifier(node)) {
      if (node.text === '__dirname') return here;
      const init = constants.get(node.text);
      return init ? evaluate(init, depth + 1) : undefined;
    }
    if (ts.isPropertyAccessExpression(node) && node.getText(source) === 'import.meta.dirname') return here;
    if (ts.isCallExpression(node)) return evaluateCall(node, depth);
    if (ts.isNewExpression(node) && node.expression.getText(source) === 'URL' && node.arguments?.length === 2) {
      const [spec, base] = node.arguments;
      if (base?.getText(source) !== 'import.meta.url' || !spec) return undefined;
      const relativeSpec = evaluate(spec, depth + 1);
      return relativeSpec === undefined ? undefined : resolve(here, relativeSpec);
    }
    return undefined;
  };
  const evaluateCall = (node: ts.CallExpression, depth: number): string | undefined => {
    const callee = node.expression.getText(source);
    if (callee === 'process.cwd') return root;
    if (callee === 'fileURLToPath' && node.arguments.length === 1) return evaluate(node.arguments[0] as ts.Expression, depth + 1);
    const name = callee.replace(/^(path|posix)\./, '');
    if (!PATH_CALLS.has(name) || node.arguments.length === 0) return undefined;
    const parts = node.arguments.map((arg) => evaluate(arg, depth + 1));
    if (parts.some((p) => p === undefined)) return undefined;
    const strings = parts as string[];
    // resolve() of relative parts starts at the working directory: the root when tests and scripts run.
    return name === 'resolve' ? resolve(root, ...strings) : join(...strings);
  };

  const escapes: PathEscape[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
      const value = evaluate(node);
      if (value !== undefined && (value.startsWith('/') || value.startsWith('.'))) {
        const resolved = resolve(root, value);
        const fromRoot = relative(root, resolved);
        if (fromRoot === '..' || fromRoot.startsWith(`..${sep}`)) {
          escapes.push({
            file: relative(root, file),
            line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1,
            resolvesTo: fromRoot.split(sep).join(posix.sep),
          });
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return escapes;
}

/**
 * The escapes in a Python or shell file: `Path(__file__).resolve().parents[N]` (and `parent` chains) past the root, a
 * `ROOT / ".." / ...` built on such a constant, and a shell `$(dirname "$0")/../..` past the root.
 */
export function findScriptEscapes(root: string, file: string, text: string): PathEscape[] {
  const here = dirname(file);
  const escapes: PathEscape[] = [];
  const report = (index: number, path: string): void => {
    const fromRoot = relative(root, resolve(path));
    if (fromRoot === '..' || fromRoot.startsWith(`..${sep}`)) {
      escapes.push({
        file: relative(root, file),
        line: text.slice(0, index).split('\n').length,
        resolvesTo: fromRoot.split(sep).join(posix.sep),
      });
    }
  };
  const known = new Map<string, string>();
  for (const m of text.matchAll(/^(\w+)\s*=\s*Path\(__file__\)\.resolve\(\)((?:\.parent(?!s))*)(?:\.parents\[(\d+)\])?/gm)) {
    const ups = (m[2] ?? '').split('.parent').length - 1 + (m[3] === undefined ? 0 : Number(m[3]) + 1);
    // Path(file).parent is the file's folder; each further .parent, or parents[N] (N + 1 levels), goes up from the file.
    const path = resolve(file, ...Array<string>(Math.max(ups, 1)).fill('..'));
    known.set(m[1] as string, path);
    report(m.index, path);
  }
  for (const m of text.matchAll(/\b(\w+)((?:\s*\/\s*["'][^"']*["'])+)/g)) {
    const base = known.get(m[1] as string);
    if (base === undefined) continue;
    const parts = [...(m[2] as string).matchAll(/["']([^"']*)["']/g)].map((p) => p[1] as string);
    report(m.index, resolve(base, ...parts));
  }
  for (const m of text.matchAll(/\$\(dirname "?\$(?:0|\{BASH_SOURCE\[0\]\})"?\)((?:\/\.\.)+)/g))
    report(m.index, resolve(here, `.${m[1] as string}`));
  return escapes;
}

/** Every escape in the source files under `dirs`. */
export function findPathEscapes(root: string, dirs: readonly string[]): PathEscape[] {
  return listSourceFiles(root, dirs).flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    if (!SOURCE.test(file)) return findScriptEscapes(root, file, text);
    // Only a file that names its own location or the working directory can build a path that is known statically.
    return ANCHORS.test(text) ? findTsEscapes(root, file, text) : [];
  });
}
