import { echoText } from './echo-text.js';
import { RerankError } from './rerank-error.js';
import type { Scorer } from './scorer.js';

/**
 * A client named a model this deployment does not serve: an invalid request (400 in every dialect,
 * never a 500), recognised by its class rather than its text.
 */
export class UnknownModelError extends RerankError {
  readonly code = 'unknown_model';

  constructor(
    readonly modelId: string,
    readonly knownIds: readonly string[],
  ) {
    super('invalid_request', `unknown model "${echoText(modelId)}"; available: ${knownIds.join(', ')}`, { param: 'model' });
    this.name = 'UnknownModelError';
  }
}

/** The models this deployment serves, by the id clients put in `model`; `get()` without an id returns the default model. */
export interface ScorerRegistry {
  readonly defaultId: string;
  /** Throws UnknownModelError for an id that is not registered. */
  get(id?: string): Scorer;
  ids(): string[];
  /** Releases every scorer's native resources. */
  closeAll(): Promise<void>;
}

/**
 * Builds a registry from already-loaded scorers. The first scorer is the default unless defaultId says
 * otherwise. Duplicate ids are a configuration error, caught at startup rather than at request time.
 */
export function createScorerRegistry(scorers: readonly Scorer[], defaultId?: string): ScorerRegistry {
  if (scorers.length === 0) throw new Error('scorer registry needs at least one scorer');
  const byId = new Map<string, Scorer>();
  for (const scorer of scorers) {
    if (byId.has(scorer.id)) throw new Error(`duplicate scorer id "${scorer.id}"`);
    byId.set(scorer.id, scorer);
  }
  const resolvedDefault = defaultId ?? scorers[0]!.id;
  if (!byId.has(resolvedDefault)) throw new UnknownModelError(resolvedDefault, [...byId.keys()]);

  return {
    defaultId: resolvedDefault,
    get(id?: string): Scorer {
      const scorer = byId.get(id ?? resolvedDefault);
      if (scorer === undefined) throw new UnknownModelError(id ?? resolvedDefault, [...byId.keys()]);
      return scorer;
    },
    ids: () => [...byId.keys()],
    async closeAll(): Promise<void> {
      await Promise.all([...byId.values()].map((scorer) => scorer.close?.()));
    },
  };
}
