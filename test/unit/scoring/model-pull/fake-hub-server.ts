import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeRepoFile {
  readonly content: Buffer;
  /** LFS files resolve through a redirect carrying X-Linked-Etag = sha256, like the real hub. */
  readonly lfs: boolean;
}

export interface FakeRepo {
  readonly sha: string;
  readonly files: Map<string, FakeRepoFile>;
  /** Paths whose served bytes differ from the listed checksum (one byte flipped). */
  readonly corrupt?: Set<string>;
  /** Paths whose next CDN transfer breaks off after this many bytes (once per entry: deleted when used). */
  readonly cutAfter?: Map<string, number>;
}

export interface FakeHub {
  readonly endpoint: string;
  readonly requests: string[];
  /** Range headers of CDN requests, in order (undefined when none was sent). */
  readonly ranges: (string | undefined)[];
  readonly authorizations: (string | undefined)[];
  close(): Promise<void>;
}

const sha256 = (data: Buffer): string => createHash('sha256').update(data).digest('hex');
const gitSha1 = (data: Buffer): string => createHash('sha1').update(`blob ${data.length}\0`).update(data).digest('hex');

/**
 * The subset of the Hugging Face hub that model:pull uses: GET /api/models/{repo}[/revision/{rev}]?blobs=true
 * and GET /{repo}/resolve/{rev}/{path}, LFS files redirected to a /cdn/ URL, on a free loopback port.
 */
export async function startFakeHub(repos: Record<string, FakeRepo>): Promise<FakeHub> {
  const requests: string[] = [];
  const authorizations: (string | undefined)[] = [];
  const ranges: (string | undefined)[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    requests.push(`${req.method} ${url.pathname}`);
    authorizations.push(req.headers.authorization);
    const api = /^\/api\/models\/([^/]+\/[^/]+)(?:\/revision\/([^/]+))?$/.exec(url.pathname);
    if (api) {
      const repo = repos[api[1]!];
      if (repo === undefined || (api[2] !== undefined && api[2] !== repo.sha && api[2] !== 'main')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"Repository not found"}');
        return;
      }
      const siblings = [...repo.files].map(([rfilename, file]) => ({
        rfilename,
        size: file.content.length,
        ...(file.lfs ? { lfs: { sha256: sha256(file.content), size: file.content.length, pointerSize: 134 } } : {}),
      }));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: api[1], sha: repo.sha, siblings }));
      return;
    }
    const resolve = /^\/([^/]+\/[^/]+)\/resolve\/([^/]+)\/(.+)$/.exec(url.pathname);
    if (resolve) {
      const repo = repos[resolve[1]!];
      const filePath = decodeURIComponent(resolve[3]!);
      const file = repo?.files.get(filePath);
      if (repo === undefined || file === undefined || resolve[2] !== repo.sha) {
        res.writeHead(404).end('Entry not found');
        return;
      }
      const body = repo.corrupt?.has(filePath) ? Buffer.from(file.content.map((b, i) => (i === 100 ? b ^ 0xff : b))) : file.content;
      if (file.lfs) {
        res.writeHead(302, {
          location: `/cdn/${sha256(file.content)}?repo=${encodeURIComponent(resolve[1]!)}&path=${encodeURIComponent(filePath)}`,
          'x-linked-etag': `"${sha256(file.content)}"`,
          'x-linked-size': String(file.content.length),
          'x-repo-commit': repo.sha,
        });
        res.end();
        return;
      }
      res.writeHead(200, { etag: `"${gitSha1(file.content)}"`, 'content-length': body.length }).end(body);
      return;
    }
    if (url.pathname.startsWith('/cdn/')) {
      const repo = repos[url.searchParams.get('repo') ?? ''];
      const filePath = url.searchParams.get('path') ?? '';
      const file = repo?.files.get(filePath);
      if (file === undefined) {
        res.writeHead(404).end();
        return;
      }
      const body = repo!.corrupt?.has(filePath) ? Buffer.from(file.content.map((b, i) => (i === 100 ? b ^ 0xff : b))) : file.content;
      // Range: bytes=N- resumes (206), like the hub's CDN.
      ranges.push(req.headers.range);
      const start = Number(/^bytes=(\d+)-$/.exec(req.headers.range ?? '')?.[1] ?? 0);
      const cut = repo!.cutAfter?.get(filePath);
      repo!.cutAfter?.delete(filePath);
      const headers = { 'content-length': body.length - start, etag: `"${sha256(file.content)}"` };
      res.writeHead(
        start > 0 ? 206 : 200,
        start > 0 ? { ...headers, 'content-range': `bytes ${start}-${body.length - 1}/${body.length}` } : headers,
      );
      if (cut !== undefined) {
        // The connection drops mid-transfer: the client gets a short body and an error.
        res.write(body.subarray(start, start + cut), () => res.destroy());
        return;
      }
      // Streamed in chunks so the client sees progress.
      for (let i = start; i < body.length; i += 256 * 1024) res.write(body.subarray(i, i + 256 * 1024));
      res.end();
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    authorizations,
    ranges,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
