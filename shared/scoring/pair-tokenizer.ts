import type { Tokenizer } from '@huggingface/tokenizers';
import { createPiecesEncoder } from './space-chunk-pieces.js';
import { asObject } from './json-object.js';
import { createHfTokenizer } from './tokenizer-json.js';

/** One tokenized (query, document) pair, ready to be padded into a batch. */
export interface EncodedPair {
  readonly inputIds: readonly number[];
  readonly tokenTypeIds: readonly number[];
}

/**
 * Encodes (query, document) pairs exactly like the Python fast tokenizer called as
 * `tokenizer(query, document, truncation=True, max_length=maxLength)`, which is what
 * sentence-transformers' CrossEncoder does.
 */
export interface PairTokenizer {
  /** Max tokens of a pair, special tokens included. */
  readonly maxLength: number;
  /** Id used to pad batches (the [PAD] token). */
  readonly padId: number;
  /** Word pieces of a text, no special tokens; encode the query once per request with this. */
  pieces(text: string): number[];
  /** Truncates and assembles one pair from pieces (see truncateLongestFirst). */
  assemble(queryPieces: readonly number[], documentPieces: readonly number[]): EncodedPair;
  encodePair(query: string, document: string): EncodedPair;
}

/** One step of a pair template: a special token or one of the two sequences, with its token type. */
type TemplatePiece = { readonly special: number; readonly typeId: number } | { readonly sequence: 'A' | 'B'; readonly typeId: number };

/**
 * HF `longest_first` truncation (tokenizers' Rust `truncate_encodings`, the default of `truncation=True`),
 * given the lengths of both sequences and the budget left after special tokens.
 *
 * Practical effect for rerank: a short query is kept whole and the document is cut to fit; only when the
 * query alone is longer than half the budget and the document is long too are both cut (to budget/2 each,
 * the odd token going to the longer one).
 */
export function truncateLongestFirst(queryLength: number, documentLength: number, budget: number): [number, number] {
  if (queryLength + documentLength <= budget) return [queryLength, documentLength];
  const swap = queryLength > documentLength;
  let shorter = swap ? documentLength : queryLength;
  let longer: number;
  // Same case split as the Rust code: keep the shorter one whole if the longer one can absorb the cut.
  if (shorter > budget) longer = shorter;
  else longer = Math.max(shorter, budget - shorter);
  if (shorter + longer > budget) {
    shorter = Math.floor(budget / 2);
    longer = shorter + (budget % 2);
  }
  const [keepQuery, keepDocument] = swap ? [longer, shorter] : [shorter, longer];
  return [Math.min(queryLength, keepQuery), Math.min(documentLength, keepDocument)];
}

/** The [token, id] pair format of BertProcessing / RobertaProcessing. */
function specialId(value: unknown, what: string): number {
  if (Array.isArray(value) && typeof value[1] === 'number') return value[1];
  throw new Error(`tokenizer.json post_processor: malformed ${what}`);
}

/**
 * The two fixed templates, from their `cls` and `sep`: BERT's `[CLS] A [SEP] B [SEP]` (B and its [SEP] are token
 * type 1) and RoBERTa's `<s> A </s></s> B </s>`, all type 0 (RoBERTa has a single token type).
 */
function clsSepPairTemplate(processor: Record<string, unknown>, style: 'bert' | 'roberta'): TemplatePiece[] {
  const cls = specialId(processor.cls, 'cls');
  const sep = specialId(processor.sep, 'sep');
  const second = style === 'bert' ? 1 : 0;
  const between: TemplatePiece[] =
    style === 'bert'
      ? [{ special: sep, typeId: 0 }]
      : [
          { special: sep, typeId: 0 },
          { special: sep, typeId: 0 },
        ];
  return [
    { special: cls, typeId: 0 },
    { sequence: 'A', typeId: 0 },
    ...between,
    { sequence: 'B', typeId: second },
    { special: sep, typeId: second },
  ];
}

/**
 * Reads the pair template from tokenizer.json's post_processor. We assemble pairs ourselves (rather than
 * calling encode(query, {text_pair})) because @huggingface/tokenizers has no truncation: we must cut the
 * word pieces first, then add [CLS]/[SEP] and token types exactly where the model's own template puts them.
 */
export function readPairTemplate(tokenizerJson: Record<string, unknown>): TemplatePiece[] {
  const processor = asObject(tokenizerJson.post_processor);
  if (processor === undefined) throw new Error('tokenizer.json has no post_processor: cannot build (query, document) pairs');
  switch (processor.type) {
    case 'TemplateProcessing': {
      const pair = processor.pair;
      const specials = asObject(processor.special_tokens) ?? {};
      if (!Array.isArray(pair)) throw new Error('tokenizer.json TemplateProcessing has no pair template');
      return pair.map((item: unknown) => {
        const special = asObject(asObject(item)?.SpecialToken);
        const sequence = asObject(asObject(item)?.Sequence);
        if (special !== undefined) {
          const ids = asObject(specials[String(special.id)])?.ids;
          if (!Array.isArray(ids) || ids.length !== 1 || typeof ids[0] !== 'number') {
            throw new Error(`tokenizer.json TemplateProcessing: special token ${String(special.id)} must map to one id`);
          }
          return { special: ids[0], typeId: Number(special.type_id ?? 0) };
        }
        if (sequence !== undefined && (sequence.id === 'A' || sequence.id === 'B')) {
          return { sequence: sequence.id, typeId: Number(sequence.type_id ?? 0) };
        }
        throw new Error('tokenizer.json TemplateProcessing: unknown template item');
      });
    }
    case 'BertProcessing':
      return clsSepPairTemplate(processor, 'bert');
    case 'RobertaProcessing':
      return clsSepPairTemplate(processor, 'roberta');
    case 'Sequence': {
      const inner = Array.isArray(processor.processors) ? processor.processors : [];
      for (const candidate of inner) {
        const type = asObject(candidate)?.type;
        if (type === 'TemplateProcessing' || type === 'BertProcessing' || type === 'RobertaProcessing') {
          return readPairTemplate({ post_processor: candidate });
        }
      }
      throw new Error('tokenizer.json post_processor Sequence has no pair template');
    }
    default:
      throw new Error(`tokenizer.json post_processor ${String(processor.type)} is not supported for pairs`);
  }
}

function resolvePadId(tokenizer: Tokenizer, tokenizerConfig: Record<string, unknown>, fallback: number | undefined): number {
  const padToken = tokenizerConfig.pad_token;
  const name = typeof padToken === 'string' ? padToken : asObject(padToken)?.content;
  const id = typeof name === 'string' ? tokenizer.token_to_id(name) : undefined;
  return id ?? fallback ?? 0;
}

export interface PairTokenizerOptions {
  readonly tokenizerJson: Record<string, unknown>;
  readonly tokenizerConfig: Record<string, unknown>;
  readonly maxLength: number;
  /** config.json pad_token_id, used when tokenizer_config.json names no pad token. */
  readonly padTokenId?: number | undefined;
}

export function createPairTokenizer(options: PairTokenizerOptions): PairTokenizer {
  const tokenizer = createHfTokenizer(options.tokenizerJson, options.tokenizerConfig);
  const template = readPairTemplate(options.tokenizerJson);
  const specialCount = template.filter((piece) => 'special' in piece).length;
  const budget = options.maxLength - specialCount;
  if (budget < 2) throw new Error(`max length ${options.maxLength} leaves no room for a pair`);
  const padId = resolvePadId(tokenizer, options.tokenizerConfig, options.padTokenId);

  // The library's encode without special tokens; for WordPiece / SentencePiece layouts most words come from a
  // bounded cache instead, with the same ids (see space-chunk-pieces.ts).
  const pieces = createPiecesEncoder(tokenizer, options.tokenizerJson, options.tokenizerConfig);

  const assemble = (queryPieces: readonly number[], documentPieces: readonly number[]): EncodedPair => {
    const [keepQuery, keepDocument] = truncateLongestFirst(queryPieces.length, documentPieces.length, budget);
    const a = queryPieces.slice(0, keepQuery);
    const b = documentPieces.slice(0, keepDocument);
    const inputIds: number[] = [];
    const tokenTypeIds: number[] = [];
    for (const piece of template) {
      const ids = 'special' in piece ? [piece.special] : piece.sequence === 'A' ? a : b;
      for (const id of ids) {
        inputIds.push(id);
        tokenTypeIds.push(piece.typeId);
      }
    }
    return { inputIds, tokenTypeIds };
  };

  return {
    maxLength: options.maxLength,
    padId,
    pieces,
    assemble,
    encodePair: (query, document) => assemble(pieces(query), pieces(document)),
  };
}
