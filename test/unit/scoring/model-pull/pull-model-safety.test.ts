import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pullModel, UnsafeHubPathError } from '../../../../shared/scoring/model-pull/index.js';
import { sameOrigin } from '../../../../shared/scoring/model-pull/safe-hub-paths.js';

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
  elsewhere = await startHub((_req, res) => res.writeHead(200, { 'content-length': '3' }).end('onx'));
  hub = await startHub((_req, res, url) => {
    if (url.pathname.startsWith('/api/models/')) {
      const siblings = ['config.json', 'tokenizer.json', 'onnx/model.onnx', '../../evil.onnx', 'onnx/../../../evil2.onnx'].map((rfilename) => ({ rfilename, size: 2 }));
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
      await expect(pullModel({ repo: 'o/r', destination: out, onnxFile: file, endpoint: hub.endpoint })).rejects.toBeInstanceOf(UnsafeHubPathError);
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
    await expect(pullModel({ repo: 'o/r', destination: out, endpoint: hub.endpoint, token: 'hf_secret' })).rejects.toThrow(/no checksum.*--allow-unverified/);
    expect(existsSync(path.join(out, 'config.json'))).toBe(false);

    const pulled = await pullModel({ repo: 'o/r', destination: out, endpoint: hub.endpoint, token: 'hf_secret', allowUnverified: true });
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

  it('treats an http URL on the hub host as another origin (no token over a downgrade)', () => {
    expect(sameOrigin('http://huggingface.co/x', 'https://huggingface.co')).toBe(false);
    expect(sameOrigin('https://cdn-lfs.huggingface.co/x', 'https://huggingface.co')).toBe(false);
    expect(sameOrigin('https://huggingface.co/api/x', 'https://huggingface.co/')).toBe(true);
  });
});
