import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** A static file of the interactive API docs: what `GET /docs` and `GET /docs/{asset}` answer. */
export interface DocsAsset {
  readonly contentType: string;
  readonly body: string;
}

/**
 * The page loads only files from this service (no CDN: the docs work offline and behind a firewall).
 * URLs are relative, so the page works at `/docs` and behind a named stage (`/prod/docs`) alike.
 */
const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>rerank-service API</title>
<link rel="stylesheet" href="docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="docs/swagger-ui-bundle.js"></script>
<script src="docs/docs-init.js"></script>
</body>
</html>
`;

// A file rather than an inline script, so the page's Content-Security-Policy can forbid inline scripts.
const INIT = `window.ui = SwaggerUIBundle({
  url: new URL('openapi.json', window.location.href).href,
  dom_id: '#swagger-ui',
  deepLinking: true,
  tryItOutEnabled: true,
  displayRequestDuration: true,
});
`;

/** What the docs page may load: Swagger UI's own styles and script, this service and nothing else. */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  // Swagger UI sets element styles at run time.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The only names `/docs/{asset}` serves: a caller's path segment is looked up here, never joined to a path. */
const SWAGGER_FILES: Readonly<Record<string, string>> = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
};

const cache = new Map<string, DocsAsset>();

/** swagger-ui-dist from node_modules: the checkout's locally, the one packaged beside the function's code on Lambda. */
function swaggerFile(name: string): string {
  const dir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
  return readFileSync(path.join(dir, name), 'utf8');
}

export const docsPage = (): DocsAsset => ({ contentType: 'text/html; charset=utf-8', body: PAGE });

/** The named asset, or undefined for any other name. Files are read once per container. */
export function docsAsset(name: string): DocsAsset | undefined {
  if (name === 'docs-init.js') return { contentType: 'text/javascript; charset=utf-8', body: INIT };
  const contentType = Object.hasOwn(SWAGGER_FILES, name) ? SWAGGER_FILES[name] : undefined;
  if (!contentType) return undefined;
  let asset = cache.get(name);
  if (!asset) {
    asset = { contentType, body: swaggerFile(name) };
    cache.set(name, asset);
  }
  return asset;
}

/** Files the Lambda bundle must carry for `docsAsset` (relative to the swagger-ui-dist package). */
export const DOCS_PACKAGE_FILES: readonly string[] = ['package.json', ...Object.keys(SWAGGER_FILES)];
