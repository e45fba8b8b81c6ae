/**
 * A visitor's identity document, stored as an upload stores it (the bytes in the storage, a
 * `files` row, the visitor pointing at it), for tests that open or audit it.
 */
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../src/db/client';
import { files, visitors } from '../../src/db/schema';

export async function storeIdentityDocument(
  app: FastifyInstance,
  db: Db,
  visitor: { id: string; companyId: string },
  png: Buffer,
) {
  const stored = `${Math.random().toString(16).slice(2).padEnd(32, '0').slice(0, 32)}.png`;
  await app.storage.put(stored, png);
  const [file] = await db
    .insert(files)
    .values({
      companyId: visitor.companyId,
      ownerType: 'visitor',
      ownerId: visitor.id,
      storedName: stored,
      mediaType: 'image/png',
      size: png.length,
      sha256: 'x',
    })
    .returning();
  if (!file) throw new Error('the file insert returned no row');
  await db.update(visitors).set({ requestImageId: file.id }).where(eq(visitors.id, visitor.id));
  return file;
}
