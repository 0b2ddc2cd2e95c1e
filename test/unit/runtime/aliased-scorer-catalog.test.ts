import { describe, expect, it } from 'vitest';
import { HOSTED_MODEL_NAMES, parseModelAliases } from '../../../shared/config/model-aliases-config.js';
import { ConfigError } from '../../../shared/config/service-config.js';
import type { ScorerCatalog } from '../../../shared/runtime/aliased-scorer-catalog.js';
import { aliasedScorerCatalog } from '../../../shared/runtime/aliased-scorer-catalog.js';
import type { Scorer } from '../../../shared/core/scorer.js';

const scorer = (id: string) => ({ id }) as unknown as Scorer;
const served: Record<string, Scorer> = { first: scorer('first'), second: scorer('second') };
const catalog: ScorerCatalog = { get: (id?: string) => served[id ?? 'first'] as Scorer, ids: () => Object.keys(served) };

describe('RERANK_MODEL_ALIASES', () => {
  it('absent: every hosted name the SDKs send points at the default model', () => {
    const aliases = parseModelAliases(undefined);

    expect([...aliases.keys()]).toEqual(HOSTED_MODEL_NAMES);
    for (const name of ['rerank-v3.5', 'rerank-english-v2.0', 'gte-rerank-v2', 'qwen3-rerank', 'gpt-4o-mini'])
      expect(aliases.get(name)).toBe('default');
  });

  it('off: none; pairs: as written; malformed or repeated entries are configuration errors', () => {
    expect(parseModelAliases('off').size).toBe(0);
    expect([...parseModelAliases('a=second, b=default')]).toEqual([
      ['a', 'second'],
      ['b', 'default'],
    ]);
    for (const bad of ['a', '=x', 'a=', 'a=x,a=y']) expect(() => parseModelAliases(bad)).toThrow(ConfigError);
  });

  it('the catalog resolves an alias to its target (default = the first model) and keeps served ids first', () => {
    const aliased = aliasedScorerCatalog(
      catalog,
      new Map([
        ['hosted', 'default'],
        ['other', 'second'],
        ['second', 'first'],
      ]),
    );

    expect(aliased.get('hosted').id).toBe('first');
    expect(aliased.get('other').id).toBe('second');
    expect(aliased.get('second').id).toBe('second');
    expect(aliased.get(undefined).id).toBe('first');
    expect(aliased.ids()).toEqual(['first', 'second', 'hosted', 'other']);
  });

  it('an alias naming a model that is not served fails at startup', () => {
    expect(() => aliasedScorerCatalog(catalog, new Map([['x', 'missing']]))).toThrow(/'x' points at 'missing'/);
  });
});
