/**
 * Issue 12 §7: an upload whose transaction fails takes its file with it, and the
 * start-up sweep removes files no row names once they are an hour old.
 */
import { existsSync } from 'node:fs';
import { utimes } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalStorage } from '../src/files/storage';
import { sweepOrphanFiles } from '../src/files/sweep';
import { withStoredFileCleanup, storeFile } from '../src/files/uploads';
import { qrPng } from '../src/qr/qr';
import { useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { buildCompany } from './helpers/factories';

describe(`orphan files (${testDatabaseKind})`, () => {
  const ctx = useTestApp();
  const root = () => path.join(ctx.config.dataDir, 'files');
  const where = (name: string) => path.join(root(), name.slice(0, 2), name);

  async function png() {
    const bytes = await qrPng(`orphan ${Math.random()}`);
    return { field: 'file', filename: 'a.png', bytes, mediaType: 'image/png' as const };
  }

  it('a failed upload transaction removes the file it stored', async () => {
    const storage = new LocalStorage(root());
    const company = await buildCompany(ctx.db);
    let stored = '';
    const failure = await withStoredFileCleanup(storage, (tracking) =>
      ctx.db.transaction(async (tx) => {
        const row = await storeFile(tx, tracking, await png(), {
          companyId: company.id,
          ownerType: 'test',
        });
        stored = row.storedName;
        expect(existsSync(where(stored))).toBe(true);
        throw new Error('the rest of the transaction failed');
      }),
    ).then(
      () => null,
      (error: unknown) => error,
    );
    expect((failure as Error).message).toBe('the rest of the transaction failed');
    expect(stored).not.toBe('');
    expect(existsSync(where(stored))).toBe(false);
  });

  it('the sweep removes old files no row names, and keeps young ones and referenced ones', async () => {
    const storage = new LocalStorage(root());
    const company = await buildCompany(ctx.db);
    const kept = await storeFile(ctx.db, storage, await png(), {
      companyId: company.id,
      ownerType: 'test',
    });
    await storage.put('0123456789abcdef0123456789abcdef.png', Buffer.from('orphan, old'));
    await storage.put('fedcba9876543210fedcba9876543210.png', Buffer.from('orphan, young'));
    const twoHoursAgo = new Date(Date.now() - 2 * 3600_000);
    for (const name of [kept.storedName, '0123456789abcdef0123456789abcdef.png'])
      await utimes(where(name), twoHoursAgo, twoHoursAgo);

    const result = await sweepOrphanFiles(ctx.db, storage);
    expect(result.removed).toEqual(['0123456789abcdef0123456789abcdef.png']);
    expect(existsSync(where(kept.storedName))).toBe(true);
    expect(existsSync(where('fedcba9876543210fedcba9876543210.png'))).toBe(true);
    expect(existsSync(where('0123456789abcdef0123456789abcdef.png'))).toBe(false);
  });
});
