/**
 * Kiosks under test (issue 29): one created through the staff route, paired through the
 * tablet's route, and its calls made with the device token. Each pairing comes from its own
 * client address, so the pairing limit (per address) counts only the test that means it.
 */
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import type { TestContext } from './app';
import { as, tokenFor } from './app';

let client = 0;
/** A fresh client address for a call that must not share a per-address limit. */
export const freshAddress = () => {
  client += 1;
  return `10.29.${Math.floor(client / 250) % 250}.${(client % 250) + 1}`;
};

/** Today as the forms write a day, DD/MM/YYYY, in UTC (the factories' default zone), shifted by `days`. */
export function utcDay(days = 0, now = new Date()): string {
  const at = new Date(now.getTime() + days * 86_400_000);
  return at.toISOString().slice(0, 10).split('-').reverse().join('/');
}

export interface PairedKiosk {
  id: string;
  token: string;
  /** A call with the device token. */
  call: (options: InjectOptions) => Promise<LightMyRequestResponse>;
}

/** Creates a kiosk at `siteId` as `staffEmail`, and answers it with its pairing code. */
export async function createKiosk(
  ctx: TestContext,
  staffEmail: string,
  company: { id: string },
  siteId: string,
  body: Record<string, unknown> = {},
) {
  const staff = as(ctx.app, await tokenFor(ctx.app, staffEmail));
  const res = await staff({
    method: 'POST',
    url: `/api/company/${company.id}/kiosks`,
    payload: {
      name: `Accueil ${Math.random().toString(36).slice(2, 7)}`,
      site_id: siteId,
      ...body,
    },
  });
  if (res.statusCode !== 201) throw new Error(`kiosk not created: ${res.statusCode} ${res.body}`);
  return res.json<{ data: { id: string }; pairing: { code: string; expires_at: string } }>();
}

/** Trades a pairing code for the device token, from a fresh client address. */
export function pair(ctx: TestContext, code: string) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/kiosk/pair',
    payload: { code },
    remoteAddress: freshAddress(),
  });
}

/** A kiosk created and paired: its id, token and a caller with the token. */
export async function pairedKiosk(
  ctx: TestContext,
  staffEmail: string,
  company: { id: string },
  siteId: string,
  body: Record<string, unknown> = {},
): Promise<PairedKiosk> {
  const created = await createKiosk(ctx, staffEmail, company, siteId, body);
  const res = await pair(ctx, created.pairing.code);
  if (res.statusCode !== 200) throw new Error(`kiosk not paired: ${res.statusCode} ${res.body}`);
  const { token } = res.json<{ token: string }>();
  return { id: created.data.id, token, call: as(ctx.app, token) };
}
