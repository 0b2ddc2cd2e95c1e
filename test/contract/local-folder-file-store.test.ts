import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { LocalFolderFileStore } from '../../shared/adapters/local/local-folder-file-store.js';
import { describeFileStoreContract } from './file-store.contract.js';

// The FileStore of `npm start` on real temporary folders (its own layout is checked in test/integration/adapters).
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describeFileStoreContract('local folder', (now) => {
  const dir = mkdtempSync(join(tmpdir(), 'file-store-contract-'));
  dirs.push(dir);
  return new LocalFolderFileStore(dir, { now });
});
