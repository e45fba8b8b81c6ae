/**
 * The file types Sésame takes, in one table (issue 36 §2): each media type the server recognises
 * by its content (apps/server files/detect.ts, never by name), with the extensions its files go
 * by. The first names a stored file, a download and a privacy export's entry; the others are what
 * a browser may give instead of a media type. Each upload's allow-list is a list of these types.
 */
export const FILE_TYPES = {
  'image/jpeg': ['jpg', 'jpeg'],
  'image/png': ['png'],
  'image/webp': ['webp'],
  'application/pdf': ['pdf'],
  'application/msword': ['doc'],
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': ['docx'],
} as const satisfies Record<string, readonly [string, ...string[]]>;

export type MediaType = keyof typeof FILE_TYPES;

/** Images: shown inline (a thumbnail, the viewer, a download opened in place); the rest is downloaded. */
export const IMAGE_TYPES = [
  'image/jpeg',
  'image/png',
  'image/webp',
] as const satisfies readonly MediaType[];

/** What an identity document may be: the form's `accept` list and the server's allow-list. */
export const ID_DOCUMENT_TYPES = [...IMAGE_TYPES, 'application/pdf'] as const;
/** The upload of 'Créer un QRCode': pdf, doc, docx and images (checked by content on the server). */
export const QR_USER_DOCUMENT_TYPES = [
  'application/pdf',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  ...IMAGE_TYPES,
] as const;
/** The member photo of 'Créer une Carte Membre'. */
export const MEMBER_PHOTO_TYPES = IMAGE_TYPES;
/** Logos are images only, recognised by content on the server (no SVG). */
export const LOGO_MEDIA_TYPES = IMAGE_TYPES;

const NAMES = new Map<string, readonly string[]>(Object.entries(FILE_TYPES));

/** The extension a file of media type `type` is named with; 'bin' for a type not in the table. */
export const extensionOf = (type: string): string => NAMES.get(type)?.[0] ?? 'bin';

/** The file-name extensions of `types`, lower case without the dot ('jpg', 'jpeg', …). */
export const extensionsOf = (types: readonly MediaType[]): string[] =>
  types.flatMap((type) => FILE_TYPES[type]);
