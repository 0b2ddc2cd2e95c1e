import type { RequestParamNames } from '../core/validate-request.js';
import type { DialectName } from './dialect.js';
import { DIALECTS } from './dialects.js';

/**
 * The request controls beyond (query, documents, top_n) that mean one thing in every dialect, named as docs/api.md's
 * control table names them: the model controls (RequestControl), Contextual AI's metadata and ZeroEntropy's latency.
 */
export const SURFACE_CONTROLS = [
  'instruction',
  'metadata',
  'max_tokens_per_doc',
  'max_tokens_per_query',
  'truncation_side',
  'latency',
  'priority',
] as const;

export type SurfaceControl = (typeof SURFACE_CONTROLS)[number];

/** The RerankRequest field each control is read into (the name its spelling is declared under). */
export const CONTROL_FIELDS: Readonly<Record<SurfaceControl, keyof RequestParamNames>> = {
  instruction: 'prompt',
  metadata: 'metadata',
  max_tokens_per_doc: 'maxTokensPerDocument',
  max_tokens_per_query: 'maxTokensPerQuery',
  truncation_side: 'truncationSide',
  latency: 'latency',
  priority: 'priority',
};

/** One dialect's spelling of each control (a dotted path in its body), or undefined where it has none. */
export interface DialectSpellings {
  readonly dialect: DialectName;
  readonly spellings: Readonly<Record<SurfaceControl, string | undefined>>;
}

/**
 * Every dialect's spelling of every control, read off its declaration (the names its 400s use), so the table in
 * docs/api.md and the contract test that walks it follow the declarations: a field declared is a spelling listed.
 */
export function controlSpellings(): DialectSpellings[] {
  return Object.values(DIALECTS).map((dialect) => {
    const names = dialect.paramNames(dialect.parse(dialect.example));
    const spellings = Object.fromEntries(SURFACE_CONTROLS.map((control) => [control, names[CONTROL_FIELDS[control]]]));
    return { dialect: dialect.name, spellings: spellings as Record<SurfaceControl, string | undefined> };
  });
}
