import { at, described, type WireType } from './wire-field.js';
import {
  BATCH_SIZE,
  DOCUMENTS_FILE_ID,
  MAX_TOKENS_PER_DOC,
  MAX_TOKENS_PER_QUERY,
  MODEL,
  PRIORITY,
  QUERY,
  RAW_SCORES,
  THRESHOLD,
  TRUNCATION_SIDE,
} from './wire-types.js';

/**
 * Groups of fields several dialects declare alike: the same wire names, read the same way. A dialect spreads a group
 * into its declaration where it has those fields, in that order (the order is the published schema's property order).
 */

/**
 * `model`, `query`, `documents` at the top of the body: the core of the Cohere / Jina family's rerank body, which the
 * OpenAI-compatible, Cohere v2, Voyage, Pinecone and Bedrock's InvokeModel bodies all start from. Each says what its
 * `model` means and which documents it takes.
 */
export const cohereStyleCore = <D, C>(documents: WireType<D, C>, modelDescription?: string) => ({
  model: at('model', modelDescription === undefined ? MODEL : described(MODEL, modelDescription)),
  query: at('query', QUERY),
  documents: at('documents', documents),
});

/**
 * This service's own extensions to a vendor's body, spelled alike in every dialect that takes all three: a score
 * cut-off (`rerank_threshold`), the job chunk size (`batch_size`) and TEI's `raw_scores`. `under` nests them as the
 * vendor nests its options (DashScope's `parameters`).
 */
export const scoringExtensions = (under?: string) => {
  const path = (name: string): string | [string, string] => (under === undefined ? name : [under, name]);
  return {
    threshold: at(path('rerank_threshold'), THRESHOLD),
    batchSize: at(path('batch_size'), BATCH_SIZE),
    activation: at(path('raw_scores'), RAW_SCORES),
  };
};

/** The corpus-file input (a batch line's documents by reference) at the top of the body, beside top-level documents. */
export const CORPUS_FILE_INPUT = { documentsFileId: at('documents_file_id', DOCUMENTS_FILE_ID) };

/** vLLM's token controls, spelled alike on every body that takes them (vLLM's rerank and score, Cohere clients' extras). */
export const TOKEN_CONTROL_FIELDS = {
  maxTokensPerDocument: at('max_tokens_per_doc', MAX_TOKENS_PER_DOC),
  maxTokensPerQuery: at('max_tokens_per_query', MAX_TOKENS_PER_QUERY),
  truncationSide: at('truncation_side', TRUNCATION_SIDE),
};

/** Cohere v2's and vLLM's `priority`: accepted, changes nothing here, reported unused. */
export const PRIORITY_FIELD = { priority: at('priority', PRIORITY) };
