/**
 * The invited visitor's link (issue 30): a signed token naming one request, valid until the
 * end of the invitation's last day (its key is for this use alone: auth/signed-link.ts). It
 * opens the visitor's invitation page (`/{slug}/invitation?token=…`): their visit, the
 * details the site asks before arrival, and "Je suis arrivé(e)" on the visit's day.
 */
import { SignedLinks } from '../auth/signed-link';

const AUDIENCE = 'sesame:invitation';

export type InvitationLinkCheck =
  { ok: true; requestId: string; expiresAt: Date } | { ok: false; reason: 'invalid' | 'expired' };

export class InvitationLinks {
  private readonly links: SignedLinks;

  constructor(secret: string, clock: () => number = Date.now) {
    this.links = new SignedLinks(secret, AUDIENCE, ['rid'], clock);
  }

  /** A link to request `requestId`, until `expiresAt` (the visitor's last day's end). */
  sign(requestId: string, expiresAt: Date): string {
    return this.links.sign({ rid: requestId }, expiresAt);
  }

  verify(token: string): InvitationLinkCheck {
    const check = this.links.verify(token);
    if (!check.ok) return check;
    const requestId = check.claims.rid;
    if (!requestId) return { ok: false, reason: 'invalid' };
    return { ok: true, requestId, expiresAt: check.expiresAt };
  }
}

/** The visitor's invitation page; `here` opens it on its "Je suis arrivé(e)" button. */
export function invitationPageUrl(
  publicUrl: string,
  companySlug: string,
  token: string,
  here = false,
): string {
  return `${publicUrl}/${companySlug}/invitation?token=${encodeURIComponent(token)}${here ? '&here=1' : ''}`;
}
