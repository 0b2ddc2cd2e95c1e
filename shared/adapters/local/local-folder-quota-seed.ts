import { derivedHold, fileHold } from '../../files/file-quota.js';
import type { QuotaSeed } from '../memory/in-memory-quota-ledger.js';
import type { LocalFolderFileStore } from './local-folder-file-store.js';

/**
 * What `npm start`'s in-memory ledger starts from: every file the folder still holds (parts of uploads that did not
 * survive the restart included, until they expire) and every object derived from one (a corpus' stored shards), so a
 * restart never hands a key its quota back.
 */
export const localFolderQuotaSeed =
  (files: LocalFolderFileStore): QuotaSeed =>
  async () => {
    const records = await files.storedFiles();
    const derived = await Promise.all(
      records.map(async (record) =>
        (await files.storedDerived(record.id)).map(({ name, bytes }) => ({
          ownerKeyId: record.ownerKeyId,
          hold: derivedHold(record, name, bytes),
        })),
      ),
    );
    return [...records.map((record) => ({ ownerKeyId: record.ownerKeyId, hold: fileHold(record) })), ...derived.flat()];
  };
