import type { IncomingMessage, ServerResponse } from 'node:http';

/** The most of a path a request line shows (paths may be up to RERANK_MAX_PATH_CHARS). */
const MAX_PATH_CHARS = 200;

/** One plain line per answered request, `POST /v1/rerank 200 41 ms`: method, path (no query), status, time. Never a header or a body. */
export function writeRequestLine(req: IncomingMessage, res: ServerResponse, out: NodeJS.WritableStream): void {
  const started = performance.now();
  res.once('finish', () => {
    const path = (req.url ?? '/').split('?', 1)[0]!;
    const shown = path.length > MAX_PATH_CHARS ? `${path.slice(0, MAX_PATH_CHARS)}…` : path;
    out.write(`${req.method ?? 'GET'} ${shown} ${res.statusCode} ${Math.round(performance.now() - started)} ms\n`);
  });
}
