import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MissingModelFileError, pullModel, UnsafeHubPathError } from '../../../../shared/scoring/model-pull/index.js';
import {
  DEFAULT_HUB_FILE_HOSTS,
  hubFileHostsFromEnv,
  redirectAllowed,
  sameOrigin,
} from '../../../../shared/scoring/model-pull/safe-hub-paths.js';

// Issue 17: model:pull wrote outside its folder, sent the token wherever a redirect pointed, and kept unverified files.
const COMMIT = 'b'.repeat(40);

interface Hub {
  readonly server: Server;
  readonly endpoint: string;
  readonly requests: { path: string; authorization: string | undefined }[];
}

async function startHub(handler: (req: IncomingMessage, res: ServerResponse, url: URL) => void): Promise<Hub> {
  const requests: Hub['requests'] = [];
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    requests.push({ path: url.pathname, authorization: req.headers.authorization });
    handler(req, res, url);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

const close = (hub: Hub) => new Promise<void>((resolve) => hub.server.close(() => resolve()));

/** A listing naming files above the folder; regular files served with no checksum header at all; the ONNX graph redirected elsewhere. */
let hub: Hub;
let elsewhere: Hub;
let parent: string;
let out: string;

beforeAll(async () => {
  elsewhere = await startHub((_req, res) => res.writeHead(200, { 'content-length': '2' }).end('on'));
  hub = await startHub((_req, res, url) => {
    if (url.pathname.startsWith('/api/models/')) {
      const siblings = ['config.json', 'tokenizer.json', 'onnx/model.onnx', '../../evil.onnx', 'onnx/../../../evil2.onnx'].map(
        (rfilename) => ({ rfilename, size: 2 }),
      );
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'o/r', sha: COMMIT, siblings }));
      return;
    }
    if (url.pathname.endsWith('/onnx/model.onnx')) {
      res.writeHead(302, { location: `${elsewhere.endpoint}/cdn/model.onnx` }).end();
      return;
    }
    res.writeHead(200, { 'content-length': '2' }).end('{}');
  });
});

afterAll(async () => {
  await close(hub);
  await close(elsewhere);
});

beforeEach(async () => {
  parent = await mkdtemp(path.join(tmpdir(), 'model-pull-safety-'));
  out = path.join(parent, 'a', 'b', 'model');
});

afterEach(async () => {
  await rm(parent, { recursive: true, force: true });
});

const resolveRequests = () => hub.requests.filter((r) => r.path.includes('/resolve/'));

describe('model:pull path safety', () => {
  it.each(['../../evil.onnx', 'onnx/../../../evil2.onnx', '/etc/evil.onnx', 'onnx//model.onnx', '', 'onnx\\..\\evil.onnx'])(
    'refuses --file %j before any download, and writes nothing',
    async (file) => {
      const before = resolveRequests().length;
      await expect(pullModel({ repo: 'o/r', destination: out, onnxFile: file, endpoint: hub.endpoint })).rejects.toBeInstanceOf(
        UnsafeHubPathError,
      );
      expect(resolveRequests().length).toBe(before);
      expect(readdirSync(parent)).toEqual([]);
    },
  );

  it.each(['x/..', '../x', 'x/.', '/x', 'x//y', 'a/b/c', ''])('refuses the repository id %j before asking the hub', async (repo) => {
    const before = hub.requests.length;
    await expect(pullModel({ repo, destination: out, endpoint: hub.endpoint })).rejects.toBeInstanceOf(UnsafeHubPathError);
    expect(hub.requests.length).toBe(before);
  });

  it('fails a file the hub gives no checksum for, unless allowed; the token never leaves the hub origin', async () => {
    await expect(pullModel({ repo: 'o/r', destination: out, endpoint: hub.endpoint, token: 'hf_secret' })).rejects.toThrow(
      /no checksum.*--allow-unverified/,
    );
    expect(existsSync(path.join(out, 'config.json'))).toBe(false);

    // The ONNX graph is redirected to another origin: followed only because it is listed as one of the hub's file hosts.
    const fileHosts = [new URL(elsewhere.endpoint).host];
    const pulled = await pullModel({
      repo: 'o/r',
      destination: out,
      endpoint: hub.endpoint,
      token: 'hf_secret',
      allowUnverified: true,
      fileHosts,
    });
    expect(pulled.files.map((f) => [f.file, f.verifiedBy])).toEqual([
      ['config.json', 'none'],
      ['tokenizer.json', 'none'],
      ['onnx/model.onnx', 'none'],
    ]);
    expect(hub.requests.some((r) => r.authorization === 'Bearer hf_secret')).toBe(true);
    expect(elsewhere.requests.length).toBeGreaterThan(0);
    expect(elsewhere.requests.every((r) => r.authorization === undefined)).toBe(true);
    expect(existsSync(path.join(parent, 'evil.onnx'))).toBe(false);
  });

  it('follows a redirect only to the hub itself or one of its file hosts (issue 21, item 5)', async () => {
    const before = elsewhere.requests.length;
    await expect(pullModel({ repo: 'o/r', destination: out, endpoint: hub.endpoint, allowUnverified: true })).rejects.toThrow(
      new RegExp(`redirected to ${elsewhere.endpoint.replace(/[.]/g, '\\.')}, which is neither the hub nor one of its file hosts`),
    );
    expect(elsewhere.requests.length).toBe(before);
    const hub_ = 'https://huggingface.co';
    const from = new URL(`${hub_}/o/r/resolve/main/model.onnx`);
    expect(redirectAllowed(new URL('https://cdn-lfs.huggingface.co/x'), from, hub_, DEFAULT_HUB_FILE_HOSTS)).toBe(true);
    expect(redirectAllowed(new URL(`${hub_}/api/other`), from, hub_, DEFAULT_HUB_FILE_HOSTS)).toBe(true);
    // A downgrade, an internal address, another scheme: refused.
    expect(redirectAllowed(new URL('http://cdn-lfs.huggingface.co/x'), from, hub_, DEFAULT_HUB_FILE_HOSTS)).toBe(false);
    expect(redirectAllowed(new URL('http://127.0.0.1:8080/admin'), from, hub_, DEFAULT_HUB_FILE_HOSTS)).toBe(false);
    expect(redirectAllowed(new URL('https://169.254.169.254/latest/meta-data'), from, hub_, DEFAULT_HUB_FILE_HOSTS)).toBe(false);
    expect(redirectAllowed(new URL('file:///etc/passwd'), from, hub_, DEFAULT_HUB_FILE_HOSTS)).toBe(false);
    expect(hubFileHostsFromEnv({ RERANK_HUB_FILE_HOSTS: ' CDN.example.org , files.example.org:8443 ' })).toEqual([
      'cdn.example.org',
      'files.example.org:8443',
    ]);
    expect(hubFileHostsFromEnv({})).toBe(DEFAULT_HUB_FILE_HOSTS);
  });

  it('treats an http URL on the hub host as another origin (no token over a downgrade)', () => {
    expect(sameOrigin('http://huggingface.co/x', 'https://huggingface.co')).toBe(false);
    expect(sameOrigin('https://cdn-lfs.huggingface.co/x', 'https://huggingface.co')).toBe(false);
    expect(sameOrigin('https://huggingface.co/api/x', 'https://huggingface.co/')).toBe(true);
  });
});

describe('model:pull size bounds and terminal safety (issue 21, items 6 and 7)', () => {
  let flood: Hub;
  let written: { bytes: number; closedEarly: boolean };

  beforeAll(async () => {
    // Lists config.json as 10 bytes, then streams 40 MB of it (with or without a Content-Length); names a file with escapes.
    flood = await startHub((req, res, url) => {
      if (url.pathname.startsWith('/api/models/o/flood')) {
        const unsized = url.pathname.includes('unsized');
        const siblings = ['config.json', 'tokenizer.json', 'onnx/model.onnx'].map((rfilename) => ({
          rfilename,
          ...(unsized ? {} : { size: 10 }),
        }));
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'o/flood', sha: COMMIT, siblings }));
        return;
      }
      if (url.pathname.startsWith('/api/models/o/escape')) {
        const siblings = ['config.json', 'tokenizer.json', 'onnx/\x1b[2J\x1b]0;pwned\x07\rmodel.onnx'].map((rfilename) => ({
          rfilename,
          size: 2,
        }));
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'o/escape', sha: COMMIT, siblings }));
        return;
      }
      written = { bytes: 0, closedEarly: false };
      res.on('close', () => (written.closedEarly = !res.writableFinished));
      res.writeHead(200, { etag: `"${'c'.repeat(40)}"` });
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      let sent = 0;
      const pump = () => {
        while (sent < 40 * 1024 * 1024 && !res.destroyed) {
          sent += chunk.length;
          written.bytes = sent;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      pump();
      void req;
    });
  });

  afterAll(async () => {
    await close(flood);
  });

  it('stops a download as soon as it passes the size the listing gave, and keeps nothing', async () => {
    await expect(pullModel({ repo: 'o/flood', destination: out, endpoint: flood.endpoint, allowUnverified: true })).rejects.toThrow(
      /config\.json: the hub sent more than the 10 bytes it announced; the download was stopped/,
    );
    expect(written.closedEarly).toBe(true);
    expect(written.bytes).toBeLessThan(40 * 1024 * 1024);
    expect(existsSync(path.join(out, 'config.json'))).toBe(false);
    expect(existsSync(path.join(out, 'config.json.part'))).toBe(false);
  });

  it('stops a download of a size announced nowhere at the documented maximum (RERANK_HUB_MAX_FILE_BYTES)', async () => {
    await expect(
      pullModel({ repo: 'o/flood-unsized', destination: out, endpoint: flood.endpoint, allowUnverified: true, maxFileBytes: 1_000_000 }),
    ).rejects.toThrow(/more than the 1000000 bytes/);
    expect(existsSync(path.join(out, 'config.json.part'))).toBe(false);
  });

  it('shows control characters from the hub as \\xNN in every message, never raw', async () => {
    const error = (await pullModel({ repo: 'o/escape', destination: out, endpoint: flood.endpoint, onnxFile: undefined }).catch(
      (e: unknown) => e,
    )) as Error;
    // The hub lists a graph whose name would clear the screen and retitle the terminal: named in the error, escaped.
    expect(error).toBeInstanceOf(MissingModelFileError);
    expect(error.message).toContain('\\x1b[2J\\x1b]0;pwned\\x07\\x0dmodel.onnx');
    // eslint-disable-next-line no-control-regex
    expect(error.message).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });
});
