import { describe, expect, it } from 'vitest';
import { HOSTED_MODEL_NAMES, modelNamesConfig, parseModelAliases } from '../../../shared/config/model-aliases-config.js';
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

describe('an alias at its first use, and RERANK_STRICT_MODEL_NAMES', () => {
  it('reports each alias once per catalog (process), at its first use, with the model that scores it', () => {
    const reported: string[] = [];
    const aliased = aliasedScorerCatalog(
      catalog,
      new Map([
        ['hosted', 'default'],
        ['other', 'second'],
      ]),
      { onFirstUse: (alias, target) => reported.push(`${alias}->${target}`) },
    );
    for (const id of ['hosted', 'hosted', 'first', undefined, 'other', 'hosted', 'other']) aliased.get(id);

    expect(reported).toEqual(['hosted->first', 'other->second']);
  });

  it('strict: the hosted names are no aliases, and their refusal says why; served ids and other names are unchanged', () => {
    const { modelAliases, strictModelNames } = modelNamesConfig({ RERANK_STRICT_MODEL_NAMES: 'on' });
    expect(strictModelNames).toBe(true);
    expect(modelAliases.size).toBe(0);
    const aliased = aliasedScorerCatalog(catalog, modelAliases, { strict: true });

    expect(aliased.ids()).toEqual(['first', 'second']);
    expect(aliased.refusalOf?.('rerank-v3.5')).toMatch(/hosted model name, and RERANK_STRICT_MODEL_NAMES is on/);
    expect(aliased.refusalOf?.('no-such-model')).toBeUndefined();
    expect(aliasedScorerCatalog(catalog, modelAliases).refusalOf?.('rerank-v3.5')).toBeUndefined();
  });

  it('reads on/off (true/false, 1/0), keeps the operator its own aliases, and refuses a contradiction at startup', () => {
    expect(modelNamesConfig({}).strictModelNames).toBe(false);
    expect(modelNamesConfig({}).modelAliases.get('rerank-v3.5')).toBe('default');
    for (const off of ['off', 'false', '0', ' OFF '])
      expect(modelNamesConfig({ RERANK_STRICT_MODEL_NAMES: off }).strictModelNames).toBe(false);
    for (const on of ['on', 'true', '1', 'TRUE']) expect(modelNamesConfig({ RERANK_STRICT_MODEL_NAMES: on }).strictModelNames).toBe(true);
    expect(() => modelNamesConfig({ RERANK_STRICT_MODEL_NAMES: 'yes please' })).toThrow(/must be on or off/);
    const own = modelNamesConfig({ RERANK_STRICT_MODEL_NAMES: 'on', RERANK_MODEL_ALIASES: 'fast=second' });
    expect([...own.modelAliases]).toEqual([['fast', 'second']]);
    expect(() => modelNamesConfig({ RERANK_STRICT_MODEL_NAMES: 'on', RERANK_MODEL_ALIASES: 'rerank-v3.5=default' })).toThrow(
      /maps 'rerank-v3.5'/,
    );
  });
});
