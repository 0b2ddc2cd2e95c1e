import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { apiKeyDigest } from '../../auth/api-key.js';
import { byCreation, type ApiKeyLimits, type ApiKeyRecord, type CreatedApiKey } from '../../auth/api-key-record.js';
import type { ApiKeyStore } from '../../auth/api-key-store.js';
import { mintApiKey } from '../../auth/mint-api-key.js';

export interface InMemoryApiKeyStoreOptions {
  /**
   * JSON file to persist to (local development, e.g. `.rerank/keys.json`): read on every call, so a running
   * dev server sees keys the CLI creates or revokes; rewritten atomically on every change; digests only.
   */
  readonly file?: string;
  /** Epoch seconds. */
  readonly clock?: () => number;
}

/** The file's shape. `digest` is SHA-256 hex of the key; the key itself is never written. */
interface KeyFile {
  readonly version: 1;
  readonly keys: { readonly digest: string; readonly record: ApiKeyRecord }[];
}

/**
 * ApiKeyStore for `npm start` and the CLI's default target, with the DynamoDB adapter's semantics (same
 * contract suite). Every method does its work synchronously before returning, so calls within one process
 * are atomic; two processes writing the same file at the same moment are not guarded (a developer's CLI).
 */
export class InMemoryApiKeyStore implements ApiKeyStore {
  readonly #file: string | undefined;
  readonly #clock: () => number;
  /** digest -> record; with a file this is reloaded on every call. */
  #keys = new Map<string, ApiKeyRecord>();

  constructor(options: InMemoryApiKeyStoreOptions = {}) {
    this.#file = options.file;
    this.#clock = options.clock ?? (() => Math.floor(Date.now() / 1000));
  }

  async create(name: string, options: ApiKeyLimits = {}): Promise<CreatedApiKey> {
    this.#load();
    const minted = mintApiKey(name, options, this.#clock());
    // 64-bit ids colliding is astronomically unlikely; refuse rather than shadow an existing key.
    if ([...this.#keys.values()].some((r) => r.keyId === minted.record.keyId)) throw new Error('key id collision; create again');
    this.#keys.set(minted.digest, minted.record);
    this.#save();
    return { key: minted.key, record: { ...minted.record } };
  }

  async findByKey(key: string): Promise<ApiKeyRecord | undefined> {
    this.#load();
    const record = this.#keys.get(apiKeyDigest(key));
    return record === undefined || record.revokedAt !== undefined ? undefined : { ...record };
  }

  async list(): Promise<ApiKeyRecord[]> {
    this.#load();
    return [...this.#keys.values()].map((r) => ({ ...r })).sort(byCreation);
  }

  async revoke(keyId: string): Promise<boolean> {
    this.#load();
    for (const [digest, record] of this.#keys) {
      if (record.keyId !== keyId) continue;
      if (record.revokedAt !== undefined) return false;
      this.#keys.set(digest, { ...record, revokedAt: this.#clock() });
      this.#save();
      return true;
    }
    return false;
  }

  #load(): void {
    if (this.#file === undefined) return;
    let text: string;
    try {
      text = readFileSync(this.#file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        this.#keys = new Map();
        return;
      }
      throw error;
    }
    const parsed = JSON.parse(text) as KeyFile;
    if (parsed.version !== 1 || !Array.isArray(parsed.keys)) throw new Error(`${this.#file}: not a version 1 key file`);
    this.#keys = new Map(parsed.keys.map((k) => [k.digest, k.record]));
  }

  #save(): void {
    if (this.#file === undefined) return;
    const body: KeyFile = { version: 1, keys: [...this.#keys].map(([digest, record]) => ({ digest, record })) };
    mkdirSync(dirname(this.#file), { recursive: true, mode: 0o700 });
    // Write-then-rename, so a reader (the dev server) never sees half a file.
    const temp = `${this.#file}.${process.pid}.tmp`;
    writeFileSync(temp, `${JSON.stringify(body, null, 2)}\n`, { mode: 0o600 });
    renameSync(temp, this.#file);
  }
}
