import { ConfigError } from '../config/service-config.js';
import { DEFAULT_MODEL_TARGET } from '../config/model-aliases-config.js';
import type { ScorerRegistry } from '../core/scorer-registry.js';

/** What RerankService resolves models through: the registry's lookups. */
export type ScorerCatalog = Pick<ScorerRegistry, 'get' | 'ids'> & {
  /** The served models only, without aliases (what an unknown-model error lists); default ids(). */
  servedIds?(): string[];
};

/**
 * The served models plus their aliases: a request naming an alias is scored by the alias's target (its
 * replies and jobs name the real model). A served id always wins over an alias of the same name.
 */
export function aliasedScorerCatalog(catalog: ScorerCatalog, aliases: ReadonlyMap<string, string>): ScorerCatalog {
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
  return {
    get: (id?: string) => catalog.get(id !== undefined && resolved.has(id) ? resolved.get(id) : id),
    ids: () => ids,
    servedIds: () => [...served],
  };
}
