import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ModelFolderError } from '../model-folder.js';

/**
 * How an LLM reranker is asked about one (query, document): the prompt around them and the two answer tokens
 * whose next-token logits give the score p(yes) = softmax([logit(no), logit(yes)])[1].
 */
export interface LlmRerankTemplate {
  /** Text before the formatted pair (system turn and the start of the user turn). */
  readonly prefix: string;
  /** Text after it (end of the user turn, the assistant turn with an empty thinking block). */
  readonly suffix: string;
  /** The pair itself, with {instruction}, {query} and {document} placeholders. */
  readonly format: string;
  /** Used when the request carries no instruction (`prompt` / `instruct`). */
  readonly defaultInstruction: string;
  readonly yesToken: string;
  readonly noToken: string;
  /** Max tokens of prefix + pair + suffix; the pair text is cut at its end to fit. */
  readonly maxLength: number;
}

/**
 * The Qwen3-Reranker recipe (its model card's reference code): the pair is truncated as one text to
 * maxLength - prefix - suffix tokens, then wrapped in the chat turns below. Repos ship no file with it,
 * so it is the default for every causal-LM folder; a folder can override any field in rerank_template.json.
 */
export const QWEN3_RERANK_TEMPLATE: LlmRerankTemplate = {
  prefix:
    '<|im_start|>system\nJudge whether the Document meets the requirements based on the Query and the Instruct provided. ' +
    'Note that the answer can only be "yes" or "no".<|im_end|>\n<|im_start|>user\n',
  suffix: '<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n',
  format: '<Instruct>: {instruction}\n<Query>: {query}\n<Document>: {document}',
  defaultInstruction: 'Given a web search query, retrieve relevant passages that answer the query',
  yesToken: 'yes',
  noToken: 'no',
  maxLength: 8192,
};

export const TEMPLATE_FILE = 'rerank_template.json';

/** Fills the format in one pass, so a query or document containing "{document}" is not expanded again. */
export function formatPair(template: LlmRerankTemplate, instruction: string | undefined, query: string, document: string): string {
  const values: Record<string, string> = { instruction: instruction ?? template.defaultInstruction, query, document };
  return template.format.replace(/\{(instruction|query|document)\}/g, (_match, key: string) => values[key]!);
}

/** The folder's rerank_template.json over the Qwen3 defaults; a wrong field type is a ModelFolderError. */
export async function readLlmRerankTemplate(folder: string): Promise<LlmRerankTemplate> {
  let text: string;
  try {
    text = await readFile(path.join(folder, TEMPLATE_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return QWEN3_RERANK_TEMPLATE;
    throw new ModelFolderError(`model folder ${folder}: cannot read ${TEMPLATE_FILE} (${(error as Error).message})`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ModelFolderError(`model folder ${folder}: ${TEMPLATE_FILE} is not valid JSON (${(error as Error).message})`);
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw new ModelFolderError(`model folder ${folder}: ${TEMPLATE_FILE} must be an object`);
  const merged: Record<string, unknown> = { ...QWEN3_RERANK_TEMPLATE, ...(raw as Record<string, unknown>) };
  for (const [key, value] of Object.entries(QWEN3_RERANK_TEMPLATE)) {
    if (typeof merged[key] !== typeof value)
      throw new ModelFolderError(`model folder ${folder}: ${TEMPLATE_FILE} field ${key} must be a ${typeof value}`);
  }
  if (!Number.isInteger(merged.maxLength) || (merged.maxLength as number) < 16) {
    throw new ModelFolderError(`model folder ${folder}: ${TEMPLATE_FILE} maxLength must be an integer >= 16`);
  }
  return merged as unknown as LlmRerankTemplate;
}
