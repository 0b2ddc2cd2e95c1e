import { afterAll, describe, expect, it } from 'vitest';
import { scorerNodeOptions, SOURCE_MAPS_CONTEXT } from '../../infra/packaging/scorer-esbuild.js';
import { removeScratchDirs, synthRerankStack } from './support/synth-rerank.js';

afterAll(removeScratchDirs);

/** NODE_OPTIONS of each scoring function (the ones given RERANK_THREADS) in a synthesized template (undefined: not set). */
function scoringNodeOptions(context: Record<string, unknown>): unknown[] {
  const resources = synthRerankStack({ bundle: false, context }).templateJson.Resources as Record<
    string,
    { Type: string; Properties: { Environment?: { Variables?: Record<string, unknown> } } }
  >;
  return Object.values(resources)
    .map((r) => (r.Type === 'AWS::Lambda::Function' ? r.Properties.Environment?.Variables : undefined))
    .filter((variables) => variables?.RERANK_THREADS !== undefined)
    .map((variables) => variables?.NODE_OPTIONS);
}

describe('source maps in the scoring functions', () => {
  it('reads the context as true or false (absent = off) and names the key on any other value', () => {
    expect(scorerNodeOptions(undefined)).toBe('');
    expect(scorerNodeOptions(false)).toBe('');
    expect(scorerNodeOptions('false')).toBe('');
    expect(scorerNodeOptions(true)).toBe('--enable-source-maps');
    expect(scorerNodeOptions('true')).toBe('--enable-source-maps');
    expect(() => scorerNodeOptions('yes')).toThrow(`${SOURCE_MAPS_CONTEXT} must be true or false`);
  });

  it('sets no NODE_OPTIONS by default, and --enable-source-maps with -c rerank:sourceMaps=true', () => {
    // Act
    const byDefault = scoringNodeOptions({});
    const optedIn = scoringNodeOptions({ [SOURCE_MAPS_CONTEXT]: 'true' });

    // Assert
    expect(byDefault.length).toBeGreaterThanOrEqual(3);
    expect(byDefault.every((value) => value === undefined)).toBe(true);
    expect(optedIn).toEqual(byDefault.map(() => '--enable-source-maps'));
  });
});
