import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Tokenizer } from '@huggingface/tokenizers';
import { describe, expect, it } from 'vitest';
import { createHfTokenizer, parseTokenizerJson, vocabularySize } from '../../../shared/scoring/tokenizer-json.js';
import { familyFolder } from './family-fixtures.js';

type Json = Record<string, unknown>;

/** Every tokenizer layout in the repository's fixtures: WordPiece (compact and indented), Unigram, two byte-level BPEs. */
const FIXTURES = [
  { name: 'tinybert-l2-fixture', folder: familyFolder('tinybert-l2-fixture'), readApart: true },
  { name: 'unpadded-cross-encoder', folder: path.resolve('test/fixtures/unpadded-cross-encoder'), readApart: true },
  { name: 'xlmr-fixture', folder: familyFolder('xlmr-fixture'), readApart: false },
  { name: 'modernbert-fixture', folder: familyFolder('modernbert-fixture'), readApart: true },
  { name: 'qwen3-reranker-fixture', folder: familyFolder('qwen3-reranker-fixture'), readApart: true },
] as const;

const TEXTS = [
  'What is the capital of France?',
  'Paris is the capital and largest city of France, with 2,102,650 residents.',
  'naïve café déjà-vu ŒUVRE ﬁnance 東京都 Ελληνικά  emoji 🙂 [UNK] [SEP] <|im_end|> \u0000 \t\n tail',
  'unbelievably-long-hyphenated_word_with##pieces and "quotes" \\ backslash {braces} }',
];

/** Whether the vocabulary was read apart (model.vocab is the lazy getter). */
const readApart = (json: Json): boolean => Object.getOwnPropertyDescriptor(json.model as object, 'vocab')?.get !== undefined;

/** What the library's model holds after its constructor: the parts the vocabulary sets. */
function modelState(tokenizer: Tokenizer): { entries: [string, number][]; vocab: (string | undefined)[]; unk: number | undefined } {
  const model = tokenizer.model as unknown as { tokens_to_ids: Map<string, number>; vocab: string[]; unk_token_id?: number };
  const entries = [...model.tokens_to_ids].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { entries, vocab: Array.from(model.vocab, (token) => token), unk: model.unk_token_id };
}

describe('parseTokenizerJson and createHfTokenizer', () => {
  describe.each(FIXTURES)('$name', ({ folder, readApart: expectedApart }) => {
    const text = readFileSync(path.join(folder, 'tokenizer.json'), 'utf8');
    const config = JSON.parse(readFileSync(path.join(folder, 'tokenizer_config.json'), 'utf8')) as Json;

    it('parses to what JSON.parse gives, reading a WordPiece or BPE vocabulary apart', () => {
      // Act
      const parsed = parseTokenizerJson(text);

      // Assert
      expect(readApart(parsed)).toBe(expectedApart);
      expect(vocabularySize(parsed)).toBe(vocabularySize(JSON.parse(text) as Json));
      expect(parsed).toEqual(JSON.parse(text));
    });

    it('builds a tokenizer with the same vocabulary, unknown id and encodings as the library alone', () => {
      // Arrange
      const reference = new Tokenizer(JSON.parse(text) as Json, config);

      // Act
      const parsed = parseTokenizerJson(text);
      const tokenizer = createHfTokenizer(parsed, config);
      const second = createHfTokenizer(parsed, config);

      // Assert
      expect(modelState(tokenizer)).toEqual(modelState(reference));
      expect(modelState(second)).toEqual(modelState(reference));
      for (const sample of TEXTS) {
        expect(tokenizer.encode(sample).ids).toEqual(reference.encode(sample).ids);
        expect(tokenizer.encode(sample, { text_pair: sample }).ids).toEqual(reference.encode(sample, { text_pair: sample }).ids);
      }
      // The JSON still reads as it was parsed once a tokenizer took the vocabulary (added tokens are not in it).
      expect(parsed).toEqual(JSON.parse(text));
    });
  });
});

/** A minimal WordPiece tokenizer.json around a vocabulary's text. */
function wordPieceJson(vocabText: string, addedTokens: unknown[] = [{ id: 0, content: '[UNK]', special: true }]): string {
  const added = JSON.stringify(addedTokens);
  return `{"version":"1.0","added_tokens":${added},"normalizer":null,"pre_tokenizer":{"type":"WhitespaceSplit"},"post_processor":null,"decoder":null,"model":{"type":"WordPiece","unk_token":"[UNK]","continuing_subword_prefix":"##","max_input_chars_per_word":100,"vocab":${vocabText}}}`;
}

describe('parseTokenizerJson on unusual vocabularies', () => {
  it.each([
    ['escaped tokens', '{"[UNK]":0,"\\"":1,"\\\\":2,"\\u00e9t\\u00e9":3,"a\\":5,":4,"}":5,"x":6}', true],
    ['blanks everywhere', '{ \n "[UNK]" : 0 ,\r\n\t"a" :1 , "b":\n2\n}', true],
    ['an empty vocabulary', '{ }', true],
    ['a repeated token (JSON.parse keeps the last)', '{"[UNK]":0,"a":1,"a":2}', false],
    ['a repeated id', '{"[UNK]":0,"a":1,"b":1}', false],
    ['a non-integer id', '{"[UNK]":0,"a":1.5}', false],
    ['a negative id', '{"[UNK]":0,"a":-1}', false],
  ])('%s: same JSON as JSON.parse (read apart: %s)', (_name, vocabText, expectedApart) => {
    // Arrange
    const text = wordPieceJson(vocabText);

    // Act
    const parsed = parseTokenizerJson(text);

    // Assert
    expect(readApart(parsed)).toBe(expectedApart);
    expect(parsed).toEqual(JSON.parse(text));
    const reference = new Tokenizer(JSON.parse(text) as Json, {});
    expect(modelState(createHfTokenizer(parsed, {}))).toEqual(modelState(reference));
  });

  it.each([
    ['inside an added token', '"vocab":{"a":1}', ''],
    ['as the end of a key after the model', '[UNK]', ',"x\\"vocab":{"z":9}'],
  ])('finds the model vocabulary when "vocab" also occurs %s', (_name, content, tail) => {
    // Arrange
    const added = [
      { id: 0, content: '[UNK]', special: true },
      { id: 7, content, special: false },
    ];
    const text = `${wordPieceJson('{"[UNK]":0,"\\"vocab\\":{":1}', added).slice(0, -1)}${tail}}`;

    // Act
    const parsed = parseTokenizerJson(text);

    // Assert
    expect(parsed).toEqual(JSON.parse(text));
    const reference = new Tokenizer(JSON.parse(text) as Json, {});
    expect(modelState(createHfTokenizer(parsed, {}))).toEqual(modelState(reference));
  });

  it('throws as JSON.parse does on invalid JSON', () => {
    expect(() => parseTokenizerJson(wordPieceJson('{"[UNK]":0,"a":1,}'))).toThrow(SyntaxError);
    expect(() => parseTokenizerJson(`${wordPieceJson('{"[UNK]":0}')} trailing`)).toThrow(SyntaxError);
    expect(() => parseTokenizerJson(wordPieceJson('{"[UNK]":0,"a\u0001":1}'))).toThrow(SyntaxError);
  });
});
