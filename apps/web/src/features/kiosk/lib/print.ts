/**
 * Printing a visitor's badge at the kiosk (issue 29).
 * - The server prints (an IPP printer is set for the kiosk): POST …/print { via: 'ipp' }.
 * - Else the tablet prints (tier 1): the badge's HTML (fetched with the device token) goes
 *   into a hidden frame whose print() is called — with Chrome's `--kiosk-printing` it goes
 *   to the default printer without a dialog — then POST …/print { via: 'browser' } records it.
 */
import { printHtml } from '../../../lib/print-html';
import { kioskApi, KioskApiError } from '../api';

export type PrintResult = { printed: true } | { printed: false; reason?: string };

const reasonOf = (error: unknown) =>
  error instanceof KioskApiError ? error.serverMessage : undefined;

export async function printBadge(requestId: string, serverPrints: boolean): Promise<PrintResult> {
  try {
    if (serverPrints) {
      await kioskApi.recordPrint(requestId, 'ipp');
      return { printed: true };
    }
    await printHtml(await kioskApi.badgeHtml(requestId), 'badge');
    await kioskApi.recordPrint(requestId, 'browser').catch(() => undefined);
    return { printed: true };
  } catch (error) {
    return { printed: false, reason: reasonOf(error) };
  }
}
