/**
 * Reads a multipart request into text fields and checked files. A file is
 * refused when empty, too large or not of an allowed type (by content);
 * nothing is stored until the caller decides to.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { UPLOAD_MAX_BYTES, extensionOf, type MediaType, type Say } from '@sesame/shared';
import type { Db } from '../db/client';
import { files } from '../db/schema';
import { badRequest, HttpError, payloadTooLarge, unsupportedMediaType } from '../errors';
import { containsNul } from '../input';
import { detectMediaType } from './detect';
import type { FileStorage } from './storage';

export interface UploadedFile {
  field: string;
  filename: string;
  bytes: Buffer;
}

export interface MultipartBody {
  fields: Record<string, string>;
  files: Record<string, UploadedFile>;
}

/**
 * `fileLimit` is the form's own file limit: a file past the parser's (larger) limit
 * is refused with the message of the limit the person filling this form must meet.
 */
export async function readMultipart(
  request: FastifyRequest,
  fileLimit: number = UPLOAD_MAX_BYTES,
): Promise<MultipartBody> {
  if (!request.isMultipart()) throw badRequest();
  const body: MultipartBody = { fields: {}, files: {} };
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        if (part.file.truncated) throw payloadTooLarge((m) => m.api.fileTooLargeMax(fileLimit));
        body.files[part.fieldname] = { field: part.fieldname, filename: part.filename, bytes };
      } else if (part.valueTruncated || part.fieldnameTruncated) {
        // A field longer than the parser keeps is longer than any field allows.
        throw badRequest();
      } else if (typeof part.value === 'string') {
        body.fields[part.fieldname] = part.value;
      }
    }
  } catch (error) {
    if (error instanceof HttpError) throw error;
    if (typeof error === 'object' && error !== null && 'code' in error) {
      if (error.code === 'FST_REQ_FILE_TOO_LARGE')
        throw payloadTooLarge((m) => m.api.fileTooLargeMax(fileLimit));
    }
    // Everything else the parser throws is a malformed body (no boundary, a cut part,
    // too many fields): the client's fault, said plainly, never a 500.
    throw badRequest();
  }
  // PostgreSQL stores no NUL byte: refused here, like in JSON bodies (app.ts).
  const names = Object.values(body.files).map((file) => file.filename);
  if (containsNul(body.fields) || containsNul(names)) throw badRequest();
  return body;
}

export interface CheckedFile extends UploadedFile {
  mediaType: MediaType;
}

/** Size and type checks of one upload; `maxBytes` is the field's own limit. */
export function checkFile(
  file: UploadedFile | undefined,
  allowed: readonly MediaType[],
  maxBytes: number,
  tooLargeMessage: Say = (m) => m.api.fileTooLargeMax(maxBytes),
): CheckedFile {
  if (!file || file.bytes.length === 0)
    throw badRequest((m) => m.api.fileInvalid, {
      [file?.field ?? 'file']: (m) => m.api.fileInvalid,
    });
  if (file.bytes.length > maxBytes) throw payloadTooLarge(tooLargeMessage);
  const mediaType = detectMediaType(file.bytes);
  if (!mediaType || !allowed.includes(mediaType)) throw unsupportedMediaType();
  return { ...file, mediaType };
}

/** Writes the bytes under a random name and records the file row (in the caller's transaction). */
export async function storeFile(
  db: Db,
  storage: FileStorage,
  file: CheckedFile,
  owner: { companyId: string; ownerType: string; ownerId?: string | null },
): Promise<typeof files.$inferSelect> {
  const storedName = `${randomBytes(16).toString('hex')}.${extensionOf(file.mediaType)}`;
  await storage.put(storedName, file.bytes);
  const [row] = await db
    .insert(files)
    .values({
      companyId: owner.companyId,
      ownerType: owner.ownerType,
      ownerId: owner.ownerId ?? null,
      storedName,
      originalName: file.filename.slice(0, 200),
      mediaType: file.mediaType,
      size: file.bytes.length,
      sha256: createHash('sha256').update(file.bytes).digest('hex'),
    })
    .returning();
  if (!row) throw new Error('the stored file row was not written');
  return row;
}

/**
 * The one cleanup of every upload (issue 12 §7, issue 13): runs `work` with a
 * storage that remembers what it wrote; when `work` throws (a check after the
 * bytes were written, the transaction rolled back), those files are removed
 * again and the error goes on. Every route that stores a file runs its
 * transaction inside it; the start-up sweep catches what a killed server left.
 */
export async function withStoredFileCleanup<T>(
  storage: FileStorage,
  work: (storage: FileStorage) => Promise<T>,
): Promise<T> {
  const written: string[] = [];
  const tracking: FileStorage = {
    put: async (name, bytes, size) => {
      written.push(name);
      await storage.put(name, bytes, size);
    },
    get: (name) => storage.get(name),
    getStream: (name) => storage.getStream(name),
    remove: (name) => storage.remove(name),
    list: () => storage.list(),
    check: () => storage.check(),
  };
  try {
    return await work(tracking);
  } catch (error) {
    await Promise.all(written.map((name) => storage.remove(name).catch(() => undefined)));
    throw error;
  }
}
