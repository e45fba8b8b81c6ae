/**
 * A walk-in's photo (issue 29): a JPEG data URL of at most KIOSK_LIMITS.photoMaxBytes once
 * decoded. The frame is drawn at most `maxSide` pixels on its longer side, then encoded at a
 * lower quality until it fits.
 */
export const PHOTO_QUALITIES = [0.85, 0.75, 0.6, 0.45, 0.3] as const;

/** The bytes a base64 data URL decodes to. */
export function dataUrlBytes(dataUrl: string): number {
  const comma = dataUrl.indexOf(',');
  const base64 = comma >= 0 ? dataUrl.slice(comma + 1) : dataUrl;
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return Math.floor((base64.length * 3) / 4) - padding;
}

/** The size a `width`×`height` frame is drawn at so its longer side is at most `maxSide`. */
export function fitWithin(width: number, height: number, maxSide: number) {
  const scale = Math.min(1, maxSide / Math.max(width, height, 1));
  return { width: Math.round(width * scale), height: Math.round(height * scale) };
}

/** The first encoding that fits `maxBytes`, trying the qualities in order; null when none does. */
export function firstThatFits(
  encode: (quality: number) => string,
  maxBytes: number,
  qualities: readonly number[] = PHOTO_QUALITIES,
): string | null {
  for (const quality of qualities) {
    const dataUrl = encode(quality);
    if (dataUrl.startsWith('data:image/jpeg;base64,') && dataUrlBytes(dataUrl) <= maxBytes) {
      return dataUrl;
    }
  }
  return null;
}
