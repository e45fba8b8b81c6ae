/**
 * Captures of a card (spec §2 QR code creation, Member card creation, Member
 * list; §9 file names). Every image inside a card is same-origin or a data URL,
 * so html-to-image never meets a tainted canvas.
 */
import { toPng } from 'html-to-image';
import { jsPDF } from 'jspdf';
import { downloadDataUrl } from '../../../lib/capture';

/** Enough pixels for the QR to decode from the PNG (the QR is 100 CSS px). */
const PIXEL_RATIO = 3;

export async function cardToPng(node: HTMLElement): Promise<string> {
  return toPng(node, {
    pixelRatio: PIXEL_RATIO,
    backgroundColor: '#ffffff',
    // A signed URL carries its permission in the query string: keep it when fetching.
    includeQueryParams: true,
    cacheBust: false,
  });
}

export const captureNames = {
  memberRecto: (domain: string, uidn: string) => `carte-${domain}-${uidn}-recto.png`,
  memberPdf: (uidn: string) => `QRCode-Membre-${uidn}.pdf`,
  qrCard: (domain: string, uidn: string) => `qrcode-${domain}-${uidn}.png`,
};

/** An A4 portrait PDF, one image per page, each fitted to the page width (spec §9). */
export function pagesToPdf(images: string[]): jsPDF {
  const pdf = new jsPDF({ orientation: 'portrait', unit: 'mm', format: 'a4' });
  const pageWidth = pdf.internal.pageSize.getWidth();
  images.forEach((image, index) => {
    if (index > 0) pdf.addPage('a4', 'portrait');
    const { width, height } = pdf.getImageProperties(image);
    pdf.addImage(image, 'PNG', 0, 0, pageWidth, (height * pageWidth) / width);
  });
  return pdf;
}

/**
 * The member card's Capture: the recto as carte-{domain}-{uidn}-recto.png, then
 * QRCode-Membre-{uidn}.pdf with the recto on page 1 and the verso on page 2.
 */
export async function captureMemberCard(
  recto: HTMLElement | null,
  verso: HTMLElement | null,
  domain: string,
  uidn: string,
): Promise<void> {
  if (!recto || !verso) {
    // Spec §8: a badge capture with a missing front or back logs an error.
    console.error('Badge capture: the front or the back of the card is missing.');
    return;
  }
  const rectoPng = await cardToPng(recto);
  const versoPng = await cardToPng(verso);
  downloadDataUrl(rectoPng, captureNames.memberRecto(domain, uidn));
  pagesToPdf([rectoPng, versoPng]).save(captureNames.memberPdf(uidn));
}

/** The permanent QR card's Capture: one PNG. */
export async function captureQrCard(node: HTMLElement | null, domain: string, uidn: string) {
  if (!node) return;
  downloadDataUrl(await cardToPng(node), captureNames.qrCard(domain, uidn));
}
