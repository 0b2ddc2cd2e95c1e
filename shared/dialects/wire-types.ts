import type { LatencyTier, RerankDocument, ScoreActivation } from '../core/rerank-request.js';
import type { TruncationSide } from '../core/request-controls.js';
import { invalidRequest } from '../core/rerank-error.js';
import { documentList, optionalBoolean, optionalInteger, optionalNumber, optionalString } from './request-schema-parts.js';
import type { WireType } from './wire-field.js';
import {
  optionalBooleanValue,
  optionalIntegerValue,
  optionalNumberValue,
  optionalStringValue,
  readDocuments,
  readStringDocuments,
  stringValue,
} from './wire-fields.js';

/**
 * The wire types the dialects share. Optional ones accept `null` as absent in both the schema and the reader
 * (Python clients send `None` for "unset"); limits that come from configuration (documents per request,
 * `batch_size`, text lengths) are not in the schemas: validateRerankRequest checks them.
 */

export const stringOrAbsent = (description: string): WireType<string | undefined> => ({
  schema: optionalString(description),
  required: false,
  read: optionalStringValue,
});

export const booleanOrAbsent = (description: string): WireType<boolean | undefined> => ({
  schema: optionalBoolean(description),
  required: false,
  read: optionalBooleanValue,
});

const numberOrAbsent = (description: string): WireType<number | undefined> => ({
  schema: optionalNumber(description),
  required: false,
  read: optionalNumberValue,
});

export const integerOrAbsent = (minimum: number, description: string): WireType<number | undefined> => ({
  schema: optionalInteger(minimum, description),
  required: false,
  read: (value, param) => optionalIntegerValue(value, param, minimum),
});

export const MODEL = stringOrAbsent('A served model id (see `GET /v1/models`); absent = the default model.');

/** A non-empty query string (whitespace only is refused too, by validateRerankRequest). */
export const QUERY: WireType<string> = {
  schema: { type: 'string', minLength: 1, description: 'The search query.' },
  required: true,
  read: stringValue,
};

/** Strings, or objects with a string `text` (Cohere / Jina style; objects are returned as sent). */
export const documents = (description: string): WireType<RerankDocument[]> => ({
  schema: documentList(description),
  required: true,
  read: readDocuments,
});

/** Strings only (Voyage's `documents`, TEI's `texts`). */
export const stringDocuments = (description: string): WireType<RerankDocument[]> => ({
  schema: { type: 'array', minItems: 1, items: { type: 'string' }, description },
  required: true,
  read: (value, param) => readStringDocuments(value, param).map((text): RerankDocument => ({ text })),
});

/**
 * A batch line's corpus by reference, beside where the dialect keeps its documents: a file whose every line is one
 * document. Declared by every dialect that takes one (the batch admission finds it by this declaration); a
 * synchronous route refuses it (readDialectRequest).
 */
export const DOCUMENTS_FILE_ID = stringOrAbsent(
  'Batch lines only (POST /v1/batches): instead of the documents, a file (purpose batch or user_data) whose every line is one document.',
);

export const TOP_N = integerOrAbsent(0, 'How many results to return, best first; absent or larger than the list = all, 0 = none.');

export const THRESHOLD = numberOrAbsent('Drops results scoring below it (after the activation).');

export const BATCH_SIZE = integerOrAbsent(1, 'Documents per queued chunk when the request runs as a job (at most the configured maximum).');

/** TEI's `raw_scores`: true = the model's raw output, false = sigmoid, absent = the scorer's default. */
export const RAW_SCORES: WireType<ScoreActivation | undefined> = {
  schema: optionalBoolean('true = raw model scores (logits); default: sigmoid scores in [0, 1].'),
  required: false,
  read: (value, param) => {
    const raw = optionalBooleanValue(value, param);
    return raw === undefined ? undefined : raw ? 'none' : 'sigmoid';
  },
};

/**
 * vLLM's and Contextual AI's `instruction`: the task the LLM yes/no family's template asks about (Qwen3-Reranker's
 * `<Instruct>`); a model without an instruction slot scores as without it. Bounded by RERANK_MAX_INSTRUCTION_CHARS.
 */
export const INSTRUCTION = stringOrAbsent(
  "A task instruction for models that take one (the LLM reranker's template, e.g. Qwen3-Reranker); others score without it.",
);

/** vLLM's `max_tokens_per_doc` (Cohere's too). */
export const MAX_TOKENS_PER_DOC = integerOrAbsent(
  1,
  "Scores only each document's first this many tokens of the served model's tokenizer (its last, with `truncation_side: left`); a model without a tokenizer scores whole documents and reports the control unused (x-rerank-unused-controls).",
);

/** vLLM's `max_tokens_per_query`. */
export const MAX_TOKENS_PER_QUERY = integerOrAbsent(
  1,
  "Scores only the query's first this many tokens of the served model's tokenizer (its last, with `truncation_side: left`).",
);

/**
 * A truncation side in any of its spellings (vLLM `left`/`right`, TEI `Left`/`Right`): which end every cut keeps, the
 * token caps' and the model window's alike.
 */
export const truncationSide = (description: string): WireType<TruncationSide | undefined> => ({
  schema: { type: ['string', 'null'], enum: ['left', 'right', 'Left', 'Right', null], description },
  required: false,
  read: (value, param) => {
    const side = optionalStringValue(value, param)?.toLowerCase();
    if (side === undefined || side === 'left' || side === 'right') return side;
    throw invalidRequest(`${param} must be left or right`, param);
  },
});

/** vLLM's `truncation_side`. */
export const TRUNCATION_SIDE = truncationSide(
  "`right` (default): a cut keeps a text's start; `left`: its end. For the token caps and the model's window alike.",
);

/**
 * Cohere v2's and vLLM's `priority`: any integer (vLLM takes negative ones; lower = sooner there). Nothing is scheduled
 * by it here and no score depends on it: accepted and reported unused.
 */
export const PRIORITY: WireType<number | undefined> = {
  schema: {
    type: ['integer', 'null'],
    description:
      'Accepted for Cohere and vLLM clients; it changes nothing here (no order, no score) and is named in `x-rerank-unused-controls`.',
  },
  required: false,
  read(value, param) {
    const priority = optionalNumberValue(value, param);
    if (priority !== undefined && !Number.isSafeInteger(priority)) throw invalidRequest(`${param} must be an integer`, param);
    return priority;
  },
};

/** ZeroEntropy's `latency`. */
export const LATENCY: WireType<LatencyTier | undefined> = {
  schema: {
    type: ['string', 'null'],
    enum: ['fast', 'slow', null],
    description:
      '`fast`: answered synchronously, or a 413 past the synchronous limits (never a job); `slow` or absent: a larger request runs as a job, waited for.',
  },
  required: false,
  read(value, param) {
    const tier = optionalStringValue(value, param);
    if (tier === undefined || tier === 'fast' || tier === 'slow') return tier;
    throw invalidRequest(`${param} must be "fast" or "slow"`, param);
  },
};

/** TEI's `truncate`. */
export const TRUNCATE = booleanOrAbsent('true = cut a query or document longer than the limit instead of answering 413.');

/** A value the schema describes and the dialect reads itself (a custom reader hook), handed over as sent. */
export const asSent = (schema: WireType<unknown>['schema'], required = false): WireType<unknown> => ({
  schema,
  required,
  read: (value) => value,
});
