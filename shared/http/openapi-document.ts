import { API_ROUTES } from './api-routes.js';
import { buildOpenApiDocument, type OpenApiDocument } from '../openapi/build-openapi-document.js';

let document: OpenApiDocument | undefined;

/**
 * The document `GET /openapi.json` serves, built on first request (the routes never change at run time). Its
 * server is where the API is mounted: `/` on a default stage, `/<stage>` behind a named API Gateway stage.
 */
export function openApiDocument(basePath = ''): OpenApiDocument {
  document ??= buildOpenApiDocument(API_ROUTES);
  return basePath === ''
    ? document
    : { ...document, servers: [{ url: basePath, description: 'The API Gateway stage this document was served from.' }] };
}
