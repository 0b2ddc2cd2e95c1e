import { RerankResponseFormatError } from '../rerank-client-errors.js';
import type { RerankMode } from '../rerank-mode.js';
import { readResultItems } from '../read-result-items.js';
import { isReplyObject, readUsage } from '../reply-fields.js';
import { rerankParameters } from './openai-mode.js';

/**
 * DashScope text-rerank: `{model, input:{query, documents}, parameters:{top_n, return_documents}}` ->
 * `{output:{results}, usage}`. The base URL is the full endpoint and is used as-is, as DashScope's own clients do.
 */
export const dashScopeMode: RerankMode = {
  name: 'dashscope',

  endpoint: (baseUrl) => baseUrl,

  buildBody: (request) => ({
    ...(request.model !== undefined ? { model: request.model } : {}),
    input: { query: request.query, documents: request.documents },
    parameters: { ...rerankParameters(request), ...(request.prompt !== undefined ? { instruct: request.prompt } : {}) },
  }),

  parseReply(body, documents) {
    if (!isReplyObject(body) || !isReplyObject(body['output'])) {
      throw new RerankResponseFormatError('reply has no "output" object', body);
    }
    return { candidates: readResultItems(body['output']['results'], documents, body), usage: readUsage(body['usage']) };
  },
};
