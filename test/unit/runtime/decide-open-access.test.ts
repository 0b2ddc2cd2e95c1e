import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadServiceConfig } from '../../../shared/config/service-config.js';
import { decideOpenAccess } from '../../../shared/runtime/decide-open-access.js';

// One scratch folder for the whole file, removed at the end: tests leave nothing in the temp dir.
const scratch = mkdtempSync(join(tmpdir(), 'rerank-open-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let files = 0;
const missing = () => join(scratch, `keys-${(files += 1)}.json`);
const base = { setting: 'auto' as const, backend: 'memory' as const, hasOperatorKeys: false };

describe('decideOpenAccess', () => {
  it('opens a fresh local server only, and says so', () => {
    const open = decideOpenAccess({ ...base, keysFile: missing() });
    expect(open.isOpen()).toBe(true);
    expect(open.description).toMatch(/auth: OFF/);
  });

  it('requires a key on AWS, with operator keys, with RERANK_AUTH=on, or once a key file exists (even empty)', () => {
    expect(decideOpenAccess({ ...base, backend: 'aws', keysFile: missing() }).isOpen()).toBe(false);
    expect(decideOpenAccess({ ...base, hasOperatorKeys: true, keysFile: missing() }).isOpen()).toBe(false);
    expect(decideOpenAccess({ ...base, setting: 'on', keysFile: missing() }).isOpen()).toBe(false);
    const file = missing();
    writeFileSync(file, '{"version":1,"keys":[]}');
    const required = decideOpenAccess({ ...base, keysFile: file });
    expect(required.isOpen()).toBe(false);
    expect(required.description).toBe('auth: API key required');
  });

  it('RERANK_AUTH=off opens a local server even with keys, and is refused with the aws backend', () => {
    const file = missing();
    writeFileSync(file, '{"version":1,"keys":[]}');
    expect(decideOpenAccess({ ...base, setting: 'off', keysFile: file }).isOpen()).toBe(true);
    expect(loadServiceConfig({ RERANK_AUTH: 'off' }).auth).toBe('off');
    expect(() =>
      loadServiceConfig({ RERANK_AUTH: 'off', RERANK_JOBS_BACKEND: 'aws', RERANK_JOBS_TABLE: 't', RERANK_CHUNK_QUEUE_URL: 'q' }),
    ).toThrow(ConfigError);
    expect(() => loadServiceConfig({ RERANK_AUTH: 'maybe' })).toThrow(/on, off or auto/);
  });
});
