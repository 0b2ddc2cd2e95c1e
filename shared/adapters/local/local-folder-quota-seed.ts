import { fileHold } from '../../files/file-quota.js';
import type { QuotaSeed } from '../memory/in-memory-quota-ledger.js';
import type { LocalFolderFileStore } from './local-folder-file-store.js';

/**
 * What `npm start`'s in-memory ledger starts from: every file the folder still holds (parts of uploads that did not
 * survive the restart included, until they expire), so a restart never hands a key its quota back.
 */
export const localFolderQuotaSeed =
  (files: LocalFolderFileStore): QuotaSeed =>
  async () =>
    (await files.storedFiles()).map((record) => ({ ownerKeyId: record.ownerKeyId, hold: fileHold(record) }));
