/**
 * Reads a QR code from a video frame. The browser's own BarcodeDetector when it
 * has one (Chrome on Android, Safari); otherwise jsQR on the frame's pixels
 * (desktop Chromium builds without it, Firefox). Both run on the device: no
 * image leaves it.
 */
import jsQR from 'jsqr';

interface NativeDetector {
  detect(source: CanvasImageSource): Promise<{ rawValue: string }[]>;
}
declare global {
  interface Window {
    BarcodeDetector?: new (options: { formats: string[] }) => NativeDetector;
  }
}

export type FrameDecoder = (canvas: HTMLCanvasElement) => Promise<string | null>;

export async function createDecoder(): Promise<FrameDecoder> {
  const Native = window.BarcodeDetector;
  if (Native) {
    try {
      const detector = new Native({ formats: ['qr_code'] });
      return async (canvas) => (await detector.detect(canvas))[0]?.rawValue ?? null;
    } catch {
      // Present but without QR support: fall through to jsQR.
    }
  }
  return async (canvas) => {
    const context = canvas.getContext('2d', { willReadFrequently: true });
    if (!context) return null;
    const { data, width, height } = context.getImageData(0, 0, canvas.width, canvas.height);
    return jsQR(data, width, height, { inversionAttempts: 'attemptBoth' })?.data ?? null;
  };
}
