import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createPiecesEncoder, createSpaceChunkPieces, spaceChunkable } from '../../../shared/scoring/space-chunk-pieces.js';
import { createPairTokenizer } from '../../../shared/scoring/pair-tokenizer.js';
import { familyFolder } from './family-fixtures.js';

type Json = Record<string, unknown>;

function readJson(folder: string, file: string): Json {
  return JSON.parse(readFileSync(path.join(folder, file), 'utf8')) as Json;
}

/** Every tokenizer family we serve, with whether the chunk cache applies to it. */
const FAMILIES = [
  { fixture: 'tinybert-l2-fixture', family: 'BERT WordPiece', chunkable: true },
  { fixture: 'xlmr-fixture', family: 'XLM-R Unigram (SentencePiece)', chunkable: true },
  { fixture: 'xlmr-2label-softmax-fixture', family: 'XLM-R Unigram, 2 labels', chunkable: true },
  { fixture: 'modernbert-fixture', family: 'ModernBERT byte-level BPE', chunkable: false },
  { fixture: 'qwen3-reranker-fixture', family: 'Qwen byte-level BPE', chunkable: false },
] as const;

/**
 * Pieces of text that stress the normalizers and pre-tokenizers around spaces: every kind of whitespace,
 * control and format characters, combining marks (NFD/NFKC), a compatibility character that NFKC turns into
 * a space + accent, ligatures that expand, Greek capital sigma (final-sigma lowercasing), CJK (spaced by
 * BertNormalizer), astral characters, a lone surrogate, SentencePiece's U+2581 and U+FF5E, and added tokens.
 */
const TRICKY = [
  ' ',
  '  ',
  '\t',
  '\n',
  '\r\n',
  '\u00a0',
  '\u3000',
  '\u2028',
  '\u200b',
  '\ufeff',
  '\u0000',
  '\u0007',
  '\ufffd',
  '\u0301',
  '\u0308',
  '\u00b4',
  'e\u0301',
  '\u00e9',
  'ﬁ',
  '\ufdfa',
  '\u2581',
  '\uff5e',
  'Σ',
  'ΟΔΟΣ',
  'σς',
  "'s",
  '中文',
  '日本語',
  '한국어',
  '😀',
  '\ud800',
  '\udc00',
  '[CLS]',
  '[MASK]',
  '[UNK]',
  '<s>',
  '</s>',
  '<mask>',
  '<unk>',
  '<|endoftext|>',
  '<|im_start|>',
  'İ',
  'ß',
  'Straße',
  'naïve',
  'don’t',
  '...',
  '--',
  '1,234.5',
  'https://x.y/z?q=1',
];

const WORDS = ['the', 'The', 'rerank', 'reranking', 'Café', 'unbelievable', 'tokenization', 'a', 'of', 'xyzzyq', 'ZZZ', 'hello,', 'world.'];

const textArbitrary = fc
  .array(
    fc.oneof(
      fc.constantFrom(...TRICKY),
      fc.constantFrom(...WORDS),
      fc.string({ unit: 'binary', maxLength: 6 }),
      fc.string({ unit: 'grapheme', maxLength: 6 }),
      fc.string({ unit: 'binary-ascii', maxLength: 8 }),
    ),
    { maxLength: 24 },
  )
  .chain((parts) =>
    fc
      .array(fc.constantFrom('', ' ', ' ', '  ', '\t', '\u00a0'), { minLength: parts.length, maxLength: parts.length })
      .map((gaps) => parts.map((part, i) => part + gaps[i]!).join('')),
  );

describe.each(FAMILIES)('served pieces match the library encode: $family ($fixture)', ({ fixture, chunkable }) => {
  const folder = familyFolder(fixture);
  const tokenizerJson = readJson(folder, 'tokenizer.json');
  const tokenizerConfig = readJson(folder, 'tokenizer_config.json');
  const tokenizer = new Tokenizer(tokenizerJson, tokenizerConfig);
  const plain = (text: string): number[] => tokenizer.encode(text, { add_special_tokens: false }).ids;

  it(`is ${chunkable ? '' : 'not '}eligible for the chunk cache`, () => {
    expect(spaceChunkable(tokenizerJson, tokenizerConfig)).toBe(chunkable);
  });

  it('gives the same ids as the plain encode on random Unicode text, through evictions', () => {
    // Tiny generations so the property also runs through eviction and promotion; the default limits are larger.
    const cached = {
      pieces: createPiecesEncoder(tokenizer, tokenizerJson, tokenizerConfig, {
        entriesPerGeneration: 16,
        maxChunkLength: 12,
        maxIdsPerChunk: 8,
      }),
    };
    fc.assert(
      fc.property(textArbitrary, (text) => {
        expect(cached.pieces(text)).toEqual(plain(text));
        // Twice: the second pass reads what the first one cached.
        expect(cached.pieces(text)).toEqual(plain(text));
      }),
      { numRuns: 1000, seed: 13 },
    );
  });

  it('gives the same ids as the plain encode on long mixed text with the default limits', () => {
    const cached = { pieces: createPiecesEncoder(tokenizer, tokenizerJson, tokenizerConfig) };
    const text = Array.from({ length: 300 }, (_, i) => `${TRICKY[i % TRICKY.length]}${WORDS[(i * 7) % WORDS.length]} `).join('');
    expect(cached.pieces(text)).toEqual(plain(text));
    expect(cached.pieces(text)).toEqual(plain(text));
  });
});

describe('createPairTokenizer pieces', () => {
  it.each(['tinybert-l2-fixture', 'xlmr-fixture'])('%s: equal to the plain encode for text seen again and again', (fixture) => {
    // Arrange
    const folder = familyFolder(fixture);
    const tokenizerJson = readJson(folder, 'tokenizer.json');
    const tokenizerConfig = readJson(folder, 'tokenizer_config.json');
    const pairs = createPairTokenizer({ tokenizerJson, tokenizerConfig, maxLength: 512 });
    const tokenizer = new Tokenizer(tokenizerJson, tokenizerConfig);
    const text = 'Reranking  reranks\tthe Café, naïve ΟΔΟΣ 中文 [MASK] <mask> documents. Reranking reranks!';

    // Act + Assert
    for (let i = 0; i < 3; i++) expect(pairs.pieces(text)).toEqual(tokenizer.encode(text, { add_special_tokens: false }).ids);
  });
});

describe('chunk cache bound', () => {
  it('never holds more than two generations, whatever the input', () => {
    // Arrange
    let calls = 0;
    const cached = createSpaceChunkPieces(
      (text) => {
        calls++;
        return [text.length];
      },
      { entriesPerGeneration: 100, maxChunkLength: 8, maxIdsPerChunk: 4 },
    );
    const distinct = Array.from({ length: 5000 }, (_, i) => `w${i}`).join(' ');

    // Act
    cached.pieces(distinct);
    const sizeAfterFlood = cached.cachedChunks;
    cached.pieces('w0');

    // Assert
    expect(sizeAfterFlood).toBeLessThanOrEqual(200);
    expect(calls).toBe(5001); // w0 was evicted long ago: tokenized again
  });

  it('does not cache chunks longer than maxChunkLength or with more ids than maxIdsPerChunk', () => {
    // Arrange
    const cached = createSpaceChunkPieces((text) => Array.from(text, (c) => c.charCodeAt(0)), {
      entriesPerGeneration: 100,
      maxChunkLength: 8,
      maxIdsPerChunk: 4,
    });

    // Act
    const ids = cached.pieces('abcdefghijk abcdef abc');

    // Assert
    expect(ids).toHaveLength(20);
    expect(cached.cachedChunks).toBe(1); // only 'abc': the 11-char chunk is too long, 'abcdef' yields 6 ids
  });
});
