import { describe, expect, it } from 'vitest';
import { readPairTemplate, truncateLongestFirst } from '../../../shared/scoring/pair-tokenizer.js';

describe('truncateLongestFirst (HF longest_first)', () => {
  it.each([
    // [query, document, budget, expected]
    [6, 100, 509, [6, 100]], // fits: untouched
    [6, 1843, 509, [6, 503]], // short query kept whole, document cut
    [600, 10, 509, [499, 10]], // long query, short document: query cut
    [400, 400, 509, [254, 255]], // both long and equal: halves, odd token to the second
    [252, 2212, 509, [252, 257]], // query under half the budget: kept whole
    [1000, 2000, 509, [254, 255]], // both over: halves
    [2000, 1000, 509, [255, 254]], // longer query gets the odd token
  ] as const)('query %i + document %i in %i -> %j', (query, document, budget, expected) => {
    expect(truncateLongestFirst(query, document, budget)).toEqual(expected);
  });
});

describe('readPairTemplate', () => {
  it('reads BertProcessing as [CLS] A [SEP] B [SEP] with type 1 for B', () => {
    // Act
    const template = readPairTemplate({ post_processor: { type: 'BertProcessing', cls: ['[CLS]', 101], sep: ['[SEP]', 102] } });

    // Assert
    expect(template).toEqual([
      { special: 101, typeId: 0 },
      { sequence: 'A', typeId: 0 },
      { special: 102, typeId: 0 },
      { sequence: 'B', typeId: 1 },
      { special: 102, typeId: 1 },
    ]);
  });

  it('reads RobertaProcessing as <s> A </s></s> B </s>, all type 0', () => {
    // Act
    const template = readPairTemplate({ post_processor: { type: 'RobertaProcessing', cls: ['<s>', 0], sep: ['</s>', 2] } });

    // Assert
    expect(template).toEqual([
      { special: 0, typeId: 0 },
      { sequence: 'A', typeId: 0 },
      { special: 2, typeId: 0 },
      { special: 2, typeId: 0 },
      { sequence: 'B', typeId: 0 },
      { special: 2, typeId: 0 },
    ]);
  });

  it('rejects a tokenizer without a post processor', () => {
    expect(() => readPairTemplate({ post_processor: null })).toThrow(/no post_processor/);
  });
});
