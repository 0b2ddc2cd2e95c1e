import type { IncomingMessage, ServerResponse } from 'node:http';
import { keyIdOf } from '../../shared/auth/api-key.js';
import { bearerToken } from '../../shared/auth/caller.js';
import type { InMemoryFileStore } from './in-memory-file-store.js';

/**
 * `POST /v1/files` and `GET /v1/files/{id}/content` over the test FileStore, in OpenAI's shapes: a stand-in for
 * the Files API (branch batch-files) so the client and CLI can be driven end to end before it lands. Answers
 * true when it handled the request.
 */
export async function serveFilesStandIn(req: IncomingMessage, res: ServerResponse, body: Buffer, files: InMemoryFileStore): Promise<boolean> {
  const url = new URL(req.url ?? '/', 'http://x');
  const owner = keyIdOf(bearerToken(req.headers.authorization) ?? '');
  if (req.method === 'POST' && url.pathname === '/v1/files') {
    const form = await new Response(body, { headers: { 'content-type': req.headers['content-type'] ?? '' } }).formData();
    const file = form.get('file') as File;
    const record = await files.put(owner, file.name, form.get('purpose') as 'batch', Buffer.from(await file.arrayBuffer()));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id: record.id, object: 'file', bytes: record.bytes, created_at: record.createdAt, filename: record.filename, purpose: record.purpose }));
    return true;
  }
  const content = /^\/v1\/files\/([^/]+)\/content$/.exec(url.pathname);
  if (req.method === 'GET' && content) {
    const record = await files.get(content[1] as string);
    if (!record || record.ownerKeyId !== owner) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'no such file', type: 'invalid_request_error', param: null, code: 'not_found' } }));
      return true;
    }
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    for await (const piece of files.read(record.id)) res.write(piece);
    res.end();
    return true;
  }
  return false;
}
