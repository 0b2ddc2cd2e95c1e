import type { RerankDocument } from '../core/rerank-request.js';

/** `{text}` for string documents; the client's own object (which carries `text`) for object documents, as Cohere does. */
export const documentObject = (document: RerankDocument): Readonly<Record<string, unknown>> => document.source ?? { text: document.text };
