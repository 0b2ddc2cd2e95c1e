import { Tokenizer } from '@huggingface/tokenizers';
import { asObject } from './json-object.js';

/**
 * tokenizer.json read for a fast cold start. Most of its load is the model's vocabulary: a 30,522-key object for
 * BERT. `JSON.parse` builds it as a dictionary-mode object (~40 ms of CPU on a 2-core EPYC), and the library turns
 * it into a Map through `Object.entries` and a second pass for its id -> token array (~90 ms more). Here the
 * vocabulary's text is read straight into that Map and array (~60 ms), and the rest of the file - small for a
 * WordPiece or BPE model - goes through `JSON.parse` as usual. The same idea as transformers' own fix for
 * processors (building the Rust tokenizer from a copy with an empty vocabulary and filling it apart).
 *
 * The result is the same object JSON.parse returns, with `model.vocab` materialized on first read (a getter), so any
 * reader of the JSON still sees the vocabulary; createHfTokenizer builds the library's Tokenizer from the table
 * without materializing it. Anything unusual (another model type, a vocabulary this reader does not accept, a
 * repeated token or id) takes the plain JSON.parse path, so the tokens are the same either way.
 */

/** A vocabulary read from tokenizer.json's text: token -> id and its inverse, as the library builds them. */
interface VocabTable {
  readonly tokensToIds: Map<string, number>;
  readonly idsToTokens: string[];
  /** Tokens in the vocabulary as read (the Map also gets the added tokens once claimed). */
  readonly size: number;
  /**
   * Set once a Tokenizer took both as its own: the library adds the added tokens to them, and each token it set is
   * kept here with the id the vocabulary gave it (undefined: not in the vocabulary), so `model.vocab` stays as read.
   */
  claimed?: Map<string, number | undefined>;
}

const TABLES = new WeakMap<object, VocabTable>();

/** The models whose vocabulary is a token -> id object that the library turns into a Map (WordPiece, BPE). */
const MAP_VOCAB_MODELS = new Set(['WordPiece', 'BPE']);

/** Where a `"vocab": {` key opens an object: the last one in the file is the model's (the model object comes last). */
const VOCAB_KEY = /"vocab"[ \t\n\r]*:[ \t\n\r]*\{/g;

/**
 * One `"token": id` entry and the comma or brace after it. Strings as JSON has them (no raw control characters, any
 * escape - checked by JSON.parse where a token has one), ids non-negative integers without leading zeros.
 */
// eslint-disable-next-line no-control-regex -- JSON strings cannot hold raw control characters: they must not match
const VOCAB_ENTRY = /[ \t\n\r]*"(?:[^"\\\u0000-\u001f]|\\.)*"[ \t\n\r]*:[ \t\n\r]*(?:0|[1-9][0-9]*)[ \t\n\r]*[,}]/y;

const EMPTY_OBJECT = /[ \t\n\r]*\}/y;

interface ScannedVocab {
  readonly table: VocabTable;
  /** Offset just after the vocabulary's closing brace. */
  readonly end: number;
}

/** The entries of the vocabulary object whose first entry starts at `start`; undefined when anything is unusual. */
function scanVocab(text: string, start: number): ScannedVocab | undefined {
  const tokensToIds = new Map<string, number>();
  const idsToTokens: string[] = [];
  EMPTY_OBJECT.lastIndex = start;
  if (EMPTY_OBJECT.test(text)) return { table: { tokensToIds, idsToTokens, size: 0 }, end: EMPTY_OBJECT.lastIndex };
  VOCAB_ENTRY.lastIndex = start;
  let from = start;
  while (VOCAB_ENTRY.test(text)) {
    const next = VOCAB_ENTRY.lastIndex;
    // Past the token's closing quote come only blanks, the colon, digits and the comma or brace: no quote.
    const open = text.indexOf('"', from);
    const close = text.lastIndexOf('"', next - 1);
    const raw = text.slice(open + 1, close);
    const token = raw.includes('\\') ? (JSON.parse(text.slice(open, close + 1)) as string) : raw;
    const id = Number(text.slice(text.indexOf(':', close) + 1, next - 1));
    // A repeated token or id: JSON.parse's last-wins object and the library's array would need reproducing.
    if (tokensToIds.has(token) || idsToTokens[id] !== undefined) return undefined;
    tokensToIds.set(token, id);
    idsToTokens[id] = token;
    if (text.charCodeAt(next - 1) === 0x7d) return { table: { tokensToIds, idsToTokens, size: tokensToIds.size }, end: next };
    from = next;
  }
  return undefined;
}

/** `model.vocab` as JSON.parse would have built it, made on first read only. */
function defineLazyVocab(model: Record<string, unknown>, table: VocabTable): void {
  let vocab: Record<string, number> | undefined;
  Object.defineProperty(model, 'vocab', {
    enumerable: true,
    configurable: true,
    get: () => {
      if (vocab === undefined) {
        vocab = Object.fromEntries(table.tokensToIds) as Record<string, number>;
        for (const [token, id] of table.claimed ?? []) {
          if (id === undefined) delete vocab[token];
          else vocab[token] = id;
        }
      }
      return vocab;
    },
  });
}

/** The vocabulary's object replaced by one that cannot occur in a tokenizer.json, to find it after parsing. */
const PLACEHOLDER_KEY = '\u0000rerank-vocabulary-read-apart';
const PLACEHOLDER = `{${JSON.stringify(PLACEHOLDER_KEY)}:0}`;

/** tokenizer.json's text parsed as JSON.parse does; throws as JSON.parse does on invalid JSON. */
export function parseTokenizerJson(text: string): Record<string, unknown> {
  let start = -1;
  VOCAB_KEY.lastIndex = 0;
  for (let match = VOCAB_KEY.exec(text); match !== null; match = VOCAB_KEY.exec(text)) start = match.index + match[0].length;
  const scanned = start < 0 ? undefined : scanVocab(text, start);
  if (scanned !== undefined) {
    const json = asObject(JSON.parse(`${text.slice(0, start - 1)}${PLACEHOLDER}${text.slice(scanned.end)}`));
    const model = asObject(json?.model);
    const placeholder = asObject(model?.vocab);
    // The placeholder must be model.vocab itself (not text inside a string), of a model the library maps.
    if (json !== undefined && model !== undefined && placeholder !== undefined && MAP_VOCAB_MODELS.has(String(model.type))) {
      const keys = Object.keys(placeholder);
      if (keys.length === 1 && keys[0] === PLACEHOLDER_KEY) {
        defineLazyVocab(model, scanned.table);
        TABLES.set(json, scanned.table);
        return json;
      }
    }
  }
  return JSON.parse(text) as Record<string, unknown>;
}

/** The number of tokens in tokenizer.json's model vocabulary (0 when it has none), without materializing it. */
export function vocabularySize(tokenizerJson: Record<string, unknown>): number {
  const table = TABLES.get(tokenizerJson);
  if (table !== undefined) return table.size;
  const vocab = asObject(tokenizerJson.model)?.vocab;
  return Array.isArray(vocab) ? vocab.length : Object.keys(asObject(vocab) ?? {}).length;
}

/** The library's model fields a vocabulary sets (WordPiece and BPE set the same three from it). */
interface VocabModel {
  tokens_to_ids: Map<string, number>;
  vocab: string[];
  unk_token_id?: number;
}

/**
 * @huggingface/tokenizers' Tokenizer for a parsed tokenizer.json. From parseTokenizerJson's vocabulary table, it is
 * built with an empty vocabulary and given the table afterwards, in the order the library's constructors use: the
 * unknown token's id from the vocabulary alone, then each added token set on both (as Tokenizer's constructor does).
 */
export function createHfTokenizer(tokenizerJson: Record<string, unknown>, tokenizerConfig: Record<string, unknown>): Tokenizer {
  const table = TABLES.get(tokenizerJson);
  const model = asObject(tokenizerJson.model);
  // A second Tokenizer from the same JSON is built the plain way (from the materialized vocab): copying a Map of
  // 30k entries costs about what building it did.
  if (table === undefined || table.claimed !== undefined || model === undefined) return new Tokenizer(tokenizerJson, tokenizerConfig);
  // A copy of the model's settings without reading `vocab` (its getter would build the object this avoids).
  const settings: Record<string, unknown> = { vocab: {} };
  for (const key of Object.keys(model)) if (key !== 'vocab') settings[key] = model[key];
  const tokenizer = new Tokenizer({ ...tokenizerJson, model: settings }, tokenizerConfig);
  const built = tokenizer.model as unknown as VocabModel;
  const { tokensToIds, idsToTokens } = table;
  const claimed = new Map<string, number | undefined>();
  table.claimed = claimed;
  const unkToken = model.unk_token;
  built.unk_token_id = typeof unkToken === 'string' ? tokensToIds.get(unkToken) : undefined;
  const added = Array.isArray(tokenizerJson.added_tokens) ? tokenizerJson.added_tokens : [];
  for (const entry of added) {
    const { content, id } = entry as { content: string; id: number };
    if (!claimed.has(content)) claimed.set(content, tokensToIds.get(content));
    tokensToIds.set(content, id);
    idsToTokens[id] = content;
  }
  built.tokens_to_ids = tokensToIds;
  built.vocab = idsToTokens;
  return tokenizer;
}
