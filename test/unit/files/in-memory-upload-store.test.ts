import { describe, expect, it } from 'vitest';
import { InMemoryUploadStore, MAX_ENDED_UPLOADS } from '../../../shared/adapters/memory/in-memory-upload-store.js';
import type { UploadRecord } from '../../../shared/files/upload-store.js';

const upload = (id: string, createdAt: number, mimeType = 'application/jsonl'): UploadRecord => ({
  id,
  ownerKeyId: 'owner',
  filename: 'f.jsonl',
  purpose: 'batch',
  bytes: 10,
  mimeType,
  createdAt,
  expiresAt: createdAt + 3_600,
  status: 'pending',
  parts: [],
});

describe('InMemoryUploadStore forgets what callers cannot use any more', () => {
  it('keeps a cancelled upload slim (no mime type, no parts) and only the latest ended ones', async () => {
    const store = new InMemoryUploadStore();
    // What the issue measured: each create-then-cancel with a 6 MiB mime_type kept ~9.5 MB for ever.
    await store.create(upload('upload_big', 1_000, 'x'.repeat(6 * 1024 * 1024)));
    await store.addPart('upload_big', { id: 'part_1', fileId: 'file-1', bytes: 5, createdAt: 1_000 }, 10);
    expect(await store.end('upload_big', 'cancelled')).toBe(true);
    expect(await store.get('upload_big')).toMatchObject({ status: 'cancelled', mimeType: '', parts: [] });
    for (let i = 0; i < MAX_ENDED_UPLOADS; i += 1) {
      await store.create(upload(`upload_${i}`, 1_000));
      await store.end(`upload_${i}`, i % 2 === 0 ? 'cancelled' : 'expired');
    }
    expect(await store.get('upload_big')).toBeUndefined();
    expect(await store.get(`upload_${MAX_ENDED_UPLOADS - 1}`)).toMatchObject({ status: 'expired' });
  });

  it('forgets a pending upload past its hour when the next one is created', async () => {
    const store = new InMemoryUploadStore();
    await store.create(upload('upload_old', 1_000));
    await store.create(upload('upload_new', 1_000 + 3_600));
    expect(await store.get('upload_old')).toBeUndefined();
    expect(await store.get('upload_new')).toMatchObject({ status: 'pending' });
  });
});
