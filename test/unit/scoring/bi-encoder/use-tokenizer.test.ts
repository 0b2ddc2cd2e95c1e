import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UseTokenizer, type UseVocabulary } from '../../../../shared/scoring/bi-encoder/use-tokenizer.js';
import { loadUseLiteGolden, USE_LITE_DIR } from './use-lite-golden.js';

const golden = loadUseLiteGolden();
const vocabulary = JSON.parse(readFileSync(path.join(USE_LITE_DIR, 'vocab.json'), 'utf8')) as UseVocabulary;
const tokenizer = new UseTokenizer(vocabulary);

describe('USE tokenizer (port of the TF.js original)', () => {
  const cases = [...golden.embed.map((c) => ({ text: c.text, ids: c.ids })), ...golden.tokenizer];

  it.each(cases.map((c) => [JSON.stringify(c.text).slice(0, 60), c] as const))('gives the original ids for %s', (_name, c) => {
    // Act
    const ids = tokenizer.encode(c.text);

    // Assert
    expect(ids).toEqual(c.ids);
  });

  it('covers the quirks the original has: unknown pieces (id 0) merged, spaces kept, empty text empty', () => {
    const byText = new Map(cases.map((c) => [c.text, c.ids]));
    expect(byText.get('🙂 🙂')).toContain(0);
    expect(byText.get('')).toEqual([]);
    expect(tokenizer.encode('🙂🙂🙂').filter((id) => id === 0)).toHaveLength(1);
    expect(tokenizer.encode('a  b').length).toBeGreaterThan(tokenizer.encode('a b').length);
    // '▁:)' (658) and '▁:-)' (6600) have a null score in vocab.json: read as 0, as the original does.
    expect(byText.get('smileys :) :( :-) ratio 1:2 see: http://x')).toEqual(expect.arrayContaining([658, 6600]));
  });

  it('tokenizes a ~100 KB document as the concatenation of its sentences', () => {
    // Arrange: long input (speed is measured by the bench, not asserted here)
    const sentence = 'Paris is the capital and largest city of France.';
    const text = Array.from({ length: 2000 }, () => sentence).join(' ');

    // Act
    const ids = tokenizer.encode(text);

    // Assert
    const one = tokenizer.encode(sentence);
    expect(ids).toEqual(Array.from({ length: 2000 }, () => one).flat());
  });
});
