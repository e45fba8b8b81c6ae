/**
 * Captures of a card (spec §2 QR code creation, Member card creation, Member
 * list; §9 file names). Every image inside a card is same-origin or a data URL,
 * so html-to-image never meets a tainted canvas.
 */
import { toJpeg, toPng } from 'html-to-image';
import { jsPDF } from 'jspdf';
import { downloadDataUrl } from '../../../lib/capture';

/** Enough pixels for the QR to decode from the PNG (the QR is 100 CSS px). */
const PIXEL_RATIO = 3;

const CAPTURE = {
  pixelRatio: PIXEL_RATIO,
  backgroundColor: '#ffffff',
  // A signed URL carries its permission in the query string: keep it when fetching.
  includeQueryParams: true,
  cacheBust: false,
} as const;

export async function cardToPng(node: HTMLElement): Promise<string> {
  return toPng(node, CAPTURE);
}

/**
 * The sides of a printed card: JPEG at 3 px per CSS px, 1020 × 642 px for the
 * 340 × 214 px card, about 300 dpi at the card's true size; a PNG of the photo
 * made the A4 PDF weigh 3.9 MB, the JPEG keeps both PDFs under 500 KB.
 */
async function cardToJpeg(node: HTMLElement): Promise<string> {
  return toJpeg(node, { ...CAPTURE, quality: 0.92 });
}

/** ID-1, the format of bank and identity cards (ISO/IEC 7810), in millimetres. */
export const ID1 = { width: 85.6, height: 54 } as const;

export const captureNames = {
  memberRecto: (domain: string, uidn: string) => `carte-${domain}-${uidn}-recto.png`,
  memberPdf: (uidn: string) => `QRCode-Membre-${uidn}.pdf`,
  memberCardPrinterPdf: (uidn: string) => `QRCode-Membre-${uidn}-CR80.pdf`,
  qrCard: (domain: string, uidn: string) => `qrcode-${domain}-${uidn}.png`,
};

/**
 * A4 portrait, one side per page at its true size (85.6 × 54 mm), centred, with
 * crop marks outside its corners: printed double-sided (long edge), the two sides
 * land back to back, ready to cut out.
 */
export function a4CardPdf(sides: string[], caption: string): jsPDF {
  const pdf = new jsPDF({ orientation: 'portrait', unit: 'mm', format: 'a4' });
  const pageWidth = pdf.internal.pageSize.getWidth();
  const pageHeight = pdf.internal.pageSize.getHeight();
  const x = (pageWidth - ID1.width) / 2;
  const y = (pageHeight - ID1.height) / 2;
  sides.forEach((image, index) => {
    if (index > 0) pdf.addPage('a4', 'portrait');
    pdf.addImage(image, 'JPEG', x, y, ID1.width, ID1.height);
    drawCropMarks(pdf, x, y);
    pdf.setFontSize(8);
    pdf.setTextColor(90);
    pdf.text(caption, pageWidth / 2, y + ID1.height + 14, { align: 'center' });
  });
  return pdf;
}

/** Two short lines at each corner, 2 mm away from the card, where the cuts go. */
function drawCropMarks(pdf: jsPDF, x: number, y: number): void {
  const gap = 2;
  const length = 6;
  pdf.setLineWidth(0.1);
  pdf.setDrawColor(0);
  for (const [cornerX, outX] of [
    [x, -1],
    [x + ID1.width, 1],
  ] as const) {
    for (const [cornerY, outY] of [
      [y, -1],
      [y + ID1.height, 1],
    ] as const) {
      pdf.line(cornerX + outX * gap, cornerY, cornerX + outX * (gap + length), cornerY);
      pdf.line(cornerX, cornerY + outY * gap, cornerX, cornerY + outY * (gap + length));
    }
  }
}

/** A card printer's PDF: one ID-1 page per side, the image to the edges. */
export function cardPrinterPdf(sides: string[]): jsPDF {
  const format: [number, number] = [ID1.width, ID1.height];
  const pdf = new jsPDF({ orientation: 'landscape', unit: 'mm', format });
  sides.forEach((image, index) => {
    if (index > 0) pdf.addPage(format, 'landscape');
    pdf.addImage(image, 'JPEG', 0, 0, ID1.width, ID1.height);
  });
  return pdf;
}

function bothSides(recto: HTMLElement | null, verso: HTMLElement | null) {
  if (!recto || !verso) {
    // Spec §8: a badge capture with a missing front or back logs an error.
    console.error('Badge capture: the front or the back of the card is missing.');
    return null;
  }
  return { recto, verso };
}

/**
 * The member card's Capture: the recto as carte-{domain}-{uidn}-recto.png, then
 * QRCode-Membre-{uidn}.pdf, A4 with the recto on page 1 and the verso on page 2.
 */
export async function captureMemberCard(
  recto: HTMLElement | null,
  verso: HTMLElement | null,
  card: { domain: string; uidn: string; caption: string },
): Promise<void> {
  const sides = bothSides(recto, verso);
  if (!sides) return;
  downloadDataUrl(await cardToPng(sides.recto), captureNames.memberRecto(card.domain, card.uidn));
  const images = [await cardToJpeg(sides.recto), await cardToJpeg(sides.verso)];
  a4CardPdf(images, card.caption).save(captureNames.memberPdf(card.uidn));
}

/** The same card for a card printer: QRCode-Membre-{uidn}-CR80.pdf, two ID-1 pages. */
export async function captureMemberCardForPrinter(
  recto: HTMLElement | null,
  verso: HTMLElement | null,
  uidn: string,
): Promise<void> {
  const sides = bothSides(recto, verso);
  if (!sides) return;
  const images = [await cardToJpeg(sides.recto), await cardToJpeg(sides.verso)];
  cardPrinterPdf(images).save(captureNames.memberCardPrinterPdf(uidn));
}

/** The permanent QR card's Capture: one PNG. */
export async function captureQrCard(node: HTMLElement | null, domain: string, uidn: string) {
  if (!node) return;
  downloadDataUrl(await cardToPng(node), captureNames.qrCard(domain, uidn));
}
