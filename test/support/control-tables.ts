import { FAMILY_CONTROLS, type ModelFamily, type RequestControl } from '../../shared/core/request-controls.js';
import { SURFACE_CONTROLS, controlSpellings, type SurfaceControl } from '../../shared/dialects/control-spellings.js';
import { DIALECTS } from '../../shared/dialects/dialects.js';

/** docs/api.md's control tables sit between these lines; the docs test compares them with controlTables(). */
export const TABLES_START = '<!-- control-tables: generated from the dialect declarations and FAMILY_CONTROLS -->';
export const TABLES_END = '<!-- /control-tables -->';

const FAMILY_LABELS: Readonly<Record<ModelFamily, string>> = {
  'cross-encoder': 'cross-encoder (BERT, XLM-R, ModernBERT)',
  'bi-encoder': 'bi-encoder (USE-lite)',
  'llm-reranker': 'LLM reranker (yes/no, Qwen3-Reranker)',
  lexical: 'lexical (BM25)',
  upstream: 'upstream (RAG tool)',
};

const row = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
const header = (first: string): string[] => [row([first, ...SURFACE_CONTROLS]), row(['---', ...SURFACE_CONTROLS.map(() => '---')])];

/** What a family does with a control: the model controls by FAMILY_CONTROLS; metadata and latency are every family's. */
function familyCell(family: ModelFamily, control: SurfaceControl): string {
  if (control === 'metadata' || control === 'latency') return 'used';
  return FAMILY_CONTROLS[family].includes(control as RequestControl) ? 'used' : 'unused';
}

/** The path a dialect's rerank route is served on: its own first path, or the path it shares (`/rerank`). */
function dialectPath(dialect: keyof typeof DIALECTS): string {
  const { underPrefix, paths, sharesPath } = DIALECTS[dialect];
  return `${underPrefix === undefined ? '' : '{prefix}'}${paths[0] ?? sharesPath?.path ?? ''}`;
}

/**
 * The two tables: each dialect's spelling of each control (a dialect that spells none is named in one line below it),
 * and what each model family does with it.
 */
export function controlTables(): string {
  const all = controlSpellings();
  const spelled = all.filter(({ spellings }) => SURFACE_CONTROLS.some((control) => spellings[control] !== undefined));
  const unspelled = all.filter((entry) => !spelled.includes(entry));
  const dialects = spelled.map(({ dialect, spellings }) =>
    row([
      `${dialect} (\`${dialectPath(dialect)}\`)`,
      ...SURFACE_CONTROLS.map((control) => (spellings[control] === undefined ? '-' : `\`${spellings[control]}\``)),
    ]),
  );
  const none = `No spelling for any control: ${unspelled.map(({ dialect }) => dialect).join(', ')}.`;
  const families = (Object.keys(FAMILY_LABELS) as ModelFamily[]).map((family) =>
    row([FAMILY_LABELS[family], ...SURFACE_CONTROLS.map((control) => familyCell(family, control))]),
  );
  return [TABLES_START, '', ...header('dialect'), ...dialects, '', none, '', ...header('model family'), ...families, '', TABLES_END].join(
    '\n',
  );
}
