import { existsSync } from 'node:fs';
import type { OpenAccess } from '../auth/open-access.js';
import type { AuthSetting } from '../config/service-config.js';

const REQUIRED: OpenAccess = { isOpen: () => false, description: 'auth: API key required' };

/** An open server closes for good (until restarted) once a key file appears: someone made a key. */
class OpenUntilKeyFile implements OpenAccess {
  readonly description: string;
  readonly #keysFile: string;
  #open = true;

  constructor(keysFile: string) {
    this.#keysFile = keysFile;
    this.description = `auth: OFF (no RERANK_API_KEYS and no key file at ${keysFile}); creating a key turns it on`;
  }

  isOpen(): boolean {
    if (this.#open && existsSync(this.#keysFile)) this.#open = false;
    return this.#open;
  }
}

export interface OpenAccessInputs {
  readonly setting: AuthSetting;
  readonly backend: 'memory' | 'aws';
  readonly hasOperatorKeys: boolean;
  readonly keysFile: string;
}

/**
 * `RERANK_AUTH=off` (local only) is open; `on`, the aws backend, operator keys or an existing key file
 * (even with every key revoked, even empty) require a key; otherwise a fresh local checkout is open.
 */
export function decideOpenAccess(inputs: OpenAccessInputs): OpenAccess {
  if (inputs.backend === 'aws' || inputs.setting === 'on') return REQUIRED;
  if (inputs.setting === 'off') return { isOpen: () => true, description: 'auth: OFF (RERANK_AUTH=off) - every caller is let in' };
  if (inputs.hasOperatorKeys || existsSync(inputs.keysFile)) return REQUIRED;
  return new OpenUntilKeyFile(inputs.keysFile);
}
