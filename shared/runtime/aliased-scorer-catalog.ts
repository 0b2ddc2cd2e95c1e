import { ConfigError } from '../config/service-config.js';
import { DEFAULT_MODEL_TARGET, HOSTED_MODEL_NAMES } from '../config/model-aliases-config.js';
import type { ScorerRegistry } from '../core/scorer-registry.js';
import { logger } from '../observability/logger.js';

/** What RerankService resolves models through: the registry's lookups. */
export type ScorerCatalog = Pick<ScorerRegistry, 'get' | 'ids'> & {
  /** The served models only, without aliases (what an unknown-model error lists); default ids(). */
  servedIds?(): string[];
  /** Why a name that is neither served nor an alias is refused, when there is more to say than "not served". */
  refusalOf?(id: string): string | undefined;
};

export interface AliasOptions {
  /** RERANK_STRICT_MODEL_NAMES: hosted names are refused with a reason that names the setting. */
  readonly strict?: boolean;
  /** Told once per alias per process, at its first use: replies name the served model, a log says which name reached it. */
  readonly onFirstUse?: (alias: string, target: string) => void;
}

/** The default first-use report: a warning, so `npm start`'s console (warnings only) shows it too. */
const warnFirstUse = (alias: string, target: string): void =>
  logger.warn(
    `model name '${alias}' is an alias: '${target}' scores it (once per alias; RERANK_MODEL_ALIASES, RERANK_STRICT_MODEL_NAMES)`,
    {
      alias,
      model: target,
    },
  );

/**
 * The served models plus their aliases: a request naming an alias is scored by the alias's target (its
 * replies and jobs name the real model). A served id always wins over an alias of the same name.
 */
export function aliasedScorerCatalog(
  catalog: ScorerCatalog,
  aliases: ReadonlyMap<string, string>,
  options: AliasOptions = {},
): ScorerCatalog {
  const served = new Set(catalog.ids());
  const resolved = new Map<string, string | undefined>();
  for (const [alias, target] of aliases) {
    if (served.has(alias)) continue;
    if (target !== DEFAULT_MODEL_TARGET && !served.has(target)) {
      throw new ConfigError(
        `RERANK_MODEL_ALIASES: '${alias}' points at '${target}', which is not served (served: ${[...served].join(', ')})`,
      );
    }
    resolved.set(alias, target === DEFAULT_MODEL_TARGET ? undefined : target);
  }
  const ids = [...served, ...resolved.keys()];
  // Bounded by the configured aliases: only names found in `resolved` are ever added.
  const used = new Set<string>();
  const onFirstUse = options.onFirstUse ?? warnFirstUse;
  return {
    get: (id?: string) => {
      if (id === undefined || !resolved.has(id)) return catalog.get(id);
      const scorer = catalog.get(resolved.get(id));
      if (!used.has(id)) {
        used.add(id);
        onFirstUse(id, scorer.id);
      }
      return scorer;
    },
    ids: () => ids,
    servedIds: () => [...served],
    refusalOf: (id: string) =>
      options.strict && HOSTED_MODEL_NAMES.includes(id) && !served.has(id)
        ? 'it is a hosted model name, and RERANK_STRICT_MODEL_NAMES is on: no hosted name stands for a served model here'
        : undefined,
  };
}
