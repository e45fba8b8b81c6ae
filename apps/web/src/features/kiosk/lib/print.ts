/**
 * Printing a visitor's badge at the kiosk (issue 29).
 * - The server prints (an IPP printer is set for the kiosk): POST …/print { via: 'ipp' }.
 * - Else the tablet prints (tier 1): the badge's HTML (fetched with the device token) goes
 *   into a hidden frame whose print() is called — with Chrome's `--kiosk-printing` it goes
 *   to the default printer without a dialog — then POST …/print { via: 'browser' } records it.
 */
import { kioskApi, KioskApiError } from '../api';

export type PrintResult = { printed: true } | { printed: false; reason?: string };

const reasonOf = (error: unknown) =>
  error instanceof KioskApiError ? error.serverMessage : undefined;

function loaded(frame: HTMLIFrameElement): Promise<void> {
  return new Promise((resolve) => {
    const timer = window.setTimeout(resolve, 5000);
    frame.addEventListener(
      'load',
      () => {
        window.clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

async function printHtml(html: string): Promise<void> {
  const frame = document.createElement('iframe');
  frame.setAttribute('aria-hidden', 'true');
  frame.tabIndex = -1;
  frame.title = 'badge';
  Object.assign(frame.style, {
    position: 'fixed',
    right: '0',
    bottom: '0',
    width: '0',
    height: '0',
    border: '0',
    visibility: 'hidden',
  });
  const ready = loaded(frame);
  frame.srcdoc = html;
  document.body.appendChild(frame);
  try {
    await ready;
    const images = Array.from(frame.contentDocument?.images ?? []);
    await Promise.all(images.map((image) => image.decode().catch(() => undefined)));
    frame.contentWindow?.focus();
    frame.contentWindow?.print();
  } finally {
    // After the print has taken the page (print() returns once it is spooled or dismissed).
    window.setTimeout(() => frame.remove(), 1000);
  }
}

export async function printBadge(requestId: string, serverPrints: boolean): Promise<PrintResult> {
  try {
    if (serverPrints) {
      await kioskApi.recordPrint(requestId, 'ipp');
      return { printed: true };
    }
    await printHtml(await kioskApi.badgeHtml(requestId));
    await kioskApi.recordPrint(requestId, 'browser').catch(() => undefined);
    return { printed: true };
  } catch (error) {
    return { printed: false, reason: reasonOf(error) };
  }
}
