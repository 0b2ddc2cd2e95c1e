import { describe, expect, it } from 'vitest';
import type { Scorer } from '../../../shared/core/scorer.js';
import { createScorerRegistry, UnknownModelError } from '../../../shared/core/scorer-registry.js';

const fakeScorer = (id: string, onClose?: () => void): Scorer => ({
  id,
  scoreKind: 'logit',
  score: async (_query, documents) => ({ scores: documents.map(() => 0), tokens: 0 }),
  close: async () => onClose?.(),
});

describe('scorer registry', () => {
  it('returns the first scorer as default and others by id', () => {
    // Arrange
    const registry = createScorerRegistry([fakeScorer('a'), fakeScorer('b')]);

    // Act / Assert
    expect(registry.get().id).toBe('a');
    expect(registry.get('b').id).toBe('b');
    expect(registry.ids()).toEqual(['a', 'b']);
    expect(registry.defaultId).toBe('a');
  });

  it('honours an explicit default id', () => {
    expect(createScorerRegistry([fakeScorer('a'), fakeScorer('b')], 'b').get().id).toBe('b');
  });

  it('throws UnknownModelError carrying the known ids', () => {
    // Arrange
    const registry = createScorerRegistry([fakeScorer('a'), fakeScorer('b')]);

    // Act
    let caught: unknown;
    try {
      registry.get('nope');
    } catch (error) {
      caught = error;
    }

    // Assert
    expect(caught).toBeInstanceOf(UnknownModelError);
    expect(caught).toBeInstanceOf(Error);
    expect((caught as UnknownModelError).modelId).toBe('nope');
    expect((caught as UnknownModelError).knownIds).toEqual(['a', 'b']);
    expect((caught as UnknownModelError).message).toMatch(/unknown model "nope"; available: a, b/);
  });

  it('rejects duplicate ids, an empty list and an unknown default', () => {
    expect(() => createScorerRegistry([fakeScorer('a'), fakeScorer('a')])).toThrow(/duplicate/);
    expect(() => createScorerRegistry([])).toThrow(/at least one/);
    expect(() => createScorerRegistry([fakeScorer('a')], 'z')).toThrow(UnknownModelError);
  });

  it('closes every scorer', async () => {
    // Arrange
    const closed: string[] = [];
    const registry = createScorerRegistry([fakeScorer('a', () => closed.push('a')), fakeScorer('b', () => closed.push('b'))]);

    // Act
    await registry.closeAll();

    // Assert
    expect(closed.sort()).toEqual(['a', 'b']);
  });
});
