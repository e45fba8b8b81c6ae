/**
 * File types recognised by their content (magic bytes), never by name. The types and their
 * extensions are the shared table's (packages/shared file-types.ts), which the forms read too.
 */
import {
  ID_DOCUMENT_TYPES,
  LOGO_MEDIA_TYPES,
  MEMBER_PHOTO_TYPES,
  QR_USER_DOCUMENT_TYPES,
  type MediaType,
} from '@sesame/shared';

/** Allow-lists per upload field (ARCHITECTURE §6). */
export const ALLOWED = {
  identityDocument: ID_DOCUMENT_TYPES,
  photo: MEMBER_PHOTO_TYPES,
  qrUserDocument: QR_USER_DOCUMENT_TYPES,
  logo: LOGO_MEDIA_TYPES,
} as const satisfies Record<string, readonly MediaType[]>;

const startsWith = (bytes: Buffer, signature: number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);

export function detectMediaType(bytes: Buffer): MediaType | null {
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (
    startsWith(bytes, [0x52, 0x49, 0x46, 0x46]) &&
    startsWith(bytes, [0x57, 0x45, 0x42, 0x50], 8)
  ) {
    return 'image/webp';
  }
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'application/pdf';
  if (startsWith(bytes, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]))
    return 'application/msword';
  // A .docx is a zip whose entries include word/…; look for that name in the first entries.
  if (
    startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) &&
    bytes.subarray(0, 64 * 1024).includes('word/')
  ) {
    return 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
  }
  return null;
}
