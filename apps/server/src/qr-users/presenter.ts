/**
 * The wire shape of a QR user or member card. Images reach the browser so that
 * a capture can draw them: the QR as a data URL, the photo as a same-origin
 * signed URL, the logo as a same-origin public URL. No storage path leaks.
 */
import type { MemberListItem, QrUserCard } from '@sesame/shared';
import type { FileUrls, FileViewer } from '../files/urls';
import { qrDataUrl, qrTargets } from '../qr/qr';
import { dayOf } from '../time-zones';
import type { QrUserRow } from './service';

export interface QrUserPresenterContext {
  publicUrl: string;
  fileUrls: FileUrls;
  /** The signed-in staff member shown the card: the document's URL is bound to their session. */
  viewer: FileViewer | null;
}

const isImage = (mediaType: string | null) => !!mediaType && mediaType.startsWith('image/');

function presentCompany(row: QrUserRow, ctx: QrUserPresenterContext) {
  return {
    id: row.company.id,
    name: row.company.name,
    slug: row.company.slug,
    logo_url: ctx.fileUrls.logo(row.company.logoStoredName),
  };
}

export async function presentQrUser(
  row: QrUserRow,
  ctx: QrUserPresenterContext,
  now = new Date(),
): Promise<QrUserCard> {
  const target = qrTargets.qrUser(ctx.publicUrl, row.uidn);
  const documentUrl = ctx.fileUrls.signed(row.documentId, ctx.viewer);
  return {
    id: row.id,
    uidn: row.uidn,
    kind: row.kind,
    type: row.type,
    firstname: row.firstname,
    lastname: row.lastname,
    email: row.email,
    contact: row.contact,
    title: row.title,
    dateExp: row.dateExp ? dayOf(row.dateExp, row.company.timezone) : null,
    date_exp: row.dateExp?.toISOString() ?? null,
    expired: !!row.dateExp && row.dateExp.getTime() < now.getTime(),
    revoked: !!row.revokedAt,
    revoked_at: row.revokedAt?.toISOString() ?? null,
    replaced_by: row.replacedBy,
    company_id: row.companyId,
    company: presentCompany(row, ctx),
    qrcode: await qrDataUrl(target),
    qr_target: target,
    photo: isImage(row.documentMediaType) ? documentUrl : null,
    user_document: documentUrl,
    user_document_type: row.documentMediaType,
    created_at: row.createdAt.toISOString(),
  };
}

/** Spec §3 "Member (list)". */
export async function presentMember(
  row: QrUserRow,
  ctx: QrUserPresenterContext,
): Promise<MemberListItem> {
  return {
    id: row.id,
    firstname: row.firstname,
    lastname: row.lastname,
    contact: row.contact,
    email: row.email,
    title: row.title,
    user_image: isImage(row.documentMediaType)
      ? ctx.fileUrls.signed(row.documentId, ctx.viewer)
      : null,
    code: await qrDataUrl(qrTargets.qrUser(ctx.publicUrl, row.uidn)),
    uidn: row.uidn,
    company: presentCompany(row, ctx),
  };
}
