/** The spec's business constants (§9) and the architecture's limits, named once. */
export const ID_FILE_MAX_BYTES = 2 * 1024 * 1024; // spec §9: 2097152 bytes
/**
 * A permanent QR user's document or a member card's photo, and the multipart parser's ceiling
 * for any file (a logo has its own LOGO_MAX_BYTES, an identity file ID_FILE_MAX_BYTES).
 */
export const UPLOAD_MAX_BYTES = 5 * 1024 * 1024;
export const PHONE_MIN_DIGITS = 8;
export const PHONE_MAX_DIGITS = 15;
export const PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;
export const SUBMIT_DELAY_MS = 1000;
export const REDIRECT_DELAY_MS = 1500;
export const USER_CREATED_REDIRECT_MS = 1400;
export const DELETE_TOAST_MS = 3000;
export const COPY_FLAG_MS = 2000;
export const MIN_TOKEN_LENGTH = 10;
export const DEFAULT_QR_TYPE = 'permanent';
export const QR_TYPES = ['permanent'] as const;
export const EVENT_DEFAULT_REASON = 'not applicable';
export const EVENT_DEFAULT_DEPARTMENT = 1;
export const MANUAL_CHECK_TYPE = 1;
export const LAZY_SCREEN_TIMEOUT_MS = 120_000;
export const EMPLOYEE_COUNT_RANGES = [
  '0-5',
  '6-10',
  '11-50',
  '51-100',
  '101-1000',
  '+1000',
] as const;
/**
 * The hour lists: 00 to 23. The spec's 01–23 left no way to say a meeting or an
 * event past midnight (issue 17); 00 is an hour like the others.
 */
export const HOURS = Array.from({ length: 24 }, (_, i) => String(i).padStart(2, '0'));
export const MINUTES = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));

export const SCANNER = {
  width: 640,
  height: 480,
  intervalMs: 500,
  rescanLockMs: 1000,
  kioskLockMs: 2000,
  /** Empty frames in a row after which a code counts as gone from the camera (read again after). */
  goneAfterFrames: 2,
  /** How long a result stays on the scanner before it says "ready" again. */
  resultShownMs: 6000,
} as const;

/** A second scan of the same code inside this window reports instead of toggling back. */
export const REPEAT_SCAN_WINDOW_MS = 60_000;

/** Token lifetime (ARCHITECTURE §6). */
export const TOKEN_TTL_SECONDS = 8 * 60 * 60;

export const IMAGE_SIZES = {
  small: 50,
  medium: 75,
  qr: 100,
  /** The identity document or photo on a scan's result, to compare with the face. */
  scanResult: 320,
} as const;

/** The most a company may let visitors in before their day: 12 hours. */
export const ARRIVAL_EARLY_MAX_MINUTES = 720;

/** Every account's password, on creation and change (the server also refuses common ones). */
export const PASSWORD_MIN_LENGTH = 12;

/** How long after an arrival or a departure the front desk may undo it (issue 14). */
export const UNDO_WINDOW_MINUTES = 10;
