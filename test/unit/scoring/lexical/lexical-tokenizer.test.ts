import { describe, expect, it } from 'vitest';
import { tokenizeLexical } from '../../../../shared/scoring/lexical/index.js';

describe('tokenizeLexical', () => {
  it('lowercases and splits on anything that is not a letter, digit or mark', () => {
    expect(tokenizeLexical("Python's HTTP-client: v2.0_beta!")).toEqual(['python', 's', 'http', 'client', 'v2', '0', 'beta']);
  });

  it('handles non-ASCII letters and NFKC compatibility forms', () => {
    expect(tokenizeLexical('Café ÉCOLE naïve Straße')).toEqual(['café', 'école', 'naïve', 'straße']);
    expect(tokenizeLexical('ＡＢＣ１２３ ﬁle')).toEqual(['abc123', 'file']);
    expect(tokenizeLexical('Cafe\u0301')).toEqual(['café']); // combining accent composed by NFKC
    expect(tokenizeLexical('Привет мир, Ελληνικά')).toEqual(['привет', 'мир', 'ελληνικά']);
  });

  it('drops English stopwords by default, keeps them on request', () => {
    expect(tokenizeLexical('The cat and the hat')).toEqual(['cat', 'hat']);
    expect(tokenizeLexical('The cat and the hat', { stopwords: false })).toEqual(['the', 'cat', 'and', 'the', 'hat']);
  });

  it('turns CJK runs into overlapping character bigrams', () => {
    expect(tokenizeLexical('東京都')).toEqual(['東京', '京都']);
    expect(tokenizeLexical('猫')).toEqual(['猫']);
    expect(tokenizeLexical('東京の天気')).toEqual(['東京', '京の', 'の天', '天気']);
    expect(tokenizeLexical('한국어 사전')).toEqual(['한국', '국어', '사전']);
  });

  it('separates CJK runs from adjacent Latin words and digits', () => {
    expect(tokenizeLexical('abc漢字def 2024年')).toEqual(['abc', '漢字', 'def', '2024', '年']);
  });

  it('counts astral CJK characters as one character each', () => {
    expect(tokenizeLexical('𠀀𠀁𠀂')).toEqual(['𠀀𠀁', '𠀁𠀂']);
  });

  it('returns no tokens for empty or punctuation-only text', () => {
    expect(tokenizeLexical('')).toEqual([]);
    expect(tokenizeLexical(' -- ... !! ')).toEqual([]);
  });

  it('takes a run of millions of letters without overflowing the regex stack, in 256-character tokens', () => {
    const tokens = tokenizeLexical('a'.repeat(10_000_000));
    expect(tokens).toHaveLength(Math.ceil(10_000_000 / 256));
    expect(tokens[0]).toBe('a'.repeat(256));
    expect(tokenizeLexical(`${'b'.repeat(300)} ok`)).toEqual(['b'.repeat(256), 'b'.repeat(44), 'ok']);
  });

  it('gives a CJK run longer than one regex piece exactly the bigrams of the whole run', () => {
    const chars = Array.from({ length: 700 }, (_, i) => String.fromCodePoint(0x4e00 + (i % 50)));
    const expected = chars.slice(0, -1).map((c, i) => c + chars[i + 1]!);
    expect(tokenizeLexical(chars.join(''))).toEqual(expected);
    expect(tokenizeLexical(`${chars.slice(0, 257).join('')} 猫`)).toEqual([...expected.slice(0, 256), '猫']);
  });
});
