/**
 * What a thank-you page says (issue 27): the code's latest check decides, not the
 * address the page was opened at, so a copied `/success-checkout/…` link never says
 * goodbye to someone still inside.
 */
export interface LatestCheck {
  check_in_time: string;
  check_out_time: string | null;
}

export type PresenceShown =
  { state: 'inside'; at: string } | { state: 'left'; at: string } | { state: 'none' };

export function presenceShown(latest: LatestCheck | undefined): PresenceShown {
  if (!latest) return { state: 'none' };
  return latest.check_out_time
    ? { state: 'left', at: latest.check_out_time }
    : { state: 'inside', at: latest.check_in_time };
}
