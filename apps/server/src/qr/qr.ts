/**
 * QR images (ARCHITECTURE §6): every QR encodes a URL of this application.
 */
import QRCode from 'qrcode';
import { formatUidn } from '@sesame/shared';

const OPTIONS = { errorCorrectionLevel: 'M', margin: 2, width: 400 } as const;

export function qrPng(text: string): Promise<Buffer> {
  return QRCode.toBuffer(text, { ...OPTIONS, type: 'png' });
}

export function qrDataUrl(text: string): Promise<string> {
  return QRCode.toDataURL(text, OPTIONS);
}

export const qrTargets = {
  visitor: (publicUrl: string, uidn: string) => `${publicUrl}/scan/${formatUidn(uidn)}`,
  qrUser: (publicUrl: string, uidn: string) => `${publicUrl}/scan-user-qrcode/${formatUidn(uidn)}`,
  /** A site's poster (issue 28) names its site: the form then asks no site. */
  companyRequestMeeting: (publicUrl: string, companySlug: string, siteId?: string) =>
    `${publicUrl}/${companySlug}/request-meeting${siteId ? `?site=${siteId}` : ''}`,
  eventShareLink: (publicUrl: string, companySlug: string, eventSlug: string) =>
    `${publicUrl}/company/${companySlug}/event/${eventSlug}`,
};
