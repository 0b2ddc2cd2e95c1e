import { joinUrl, urlPath } from '../base-url.js';
import { RerankResponseFormatError } from '../rerank-client-errors.js';
import type { ModeRequest, RerankMode } from '../rerank-mode.js';
import { readResultItems } from '../read-result-items.js';
import { isReplyObject, readUsage } from '../reply-fields.js';

/** The fields OpenAI-compatible and DashScope requests share, minus the envelope. */
export function rerankParameters(request: ModeRequest): Record<string, unknown> {
  return {
    ...(request.topK !== undefined ? { top_n: request.topK } : {}),
    // Jina defaults return_documents to true, so say false explicitly.
    return_documents: request.includeDocs,
    ...(request.rawScores !== undefined ? { raw_scores: request.rawScores } : {}),
    ...(request.threshold !== undefined ? { rerank_threshold: request.threshold } : {}),
    ...(request.batchSize !== undefined ? { batch_size: request.batchSize } : {}),
  };
}

/** OpenAI-compatible (Jina / Cohere v1): `POST {base}/rerank` `{model, query, documents, top_n, return_documents}`. */
export const openAiMode: RerankMode = {
  name: 'openai',

  // `/rerank` is appended unless the base URL already names it - checked on the path only, so a host named rerank.* still gets it.
  endpoint: (baseUrl) => (urlPath(baseUrl).includes('/rerank') ? baseUrl : joinUrl(baseUrl, 'rerank')),

  buildBody: (request) => ({
    ...(request.model !== undefined ? { model: request.model } : {}),
    query: request.query,
    documents: request.documents,
    ...rerankParameters(request),
    ...(request.prompt !== undefined ? { instruction: request.prompt } : {}),
    ...(request.metadata !== undefined ? { metadata: request.metadata } : {}),
    ...request.tokenControls,
  }),

  parseReply(body, documents) {
    if (!isReplyObject(body)) throw new RerankResponseFormatError('reply is not a JSON object', body);
    // Llama Stack's rerank answers `{data:[...]}`; everything else here answers `{results:[...]}`.
    return { candidates: readResultItems(body['results'] ?? body['data'], documents, body), usage: readUsage(body['usage']) };
  },
};
