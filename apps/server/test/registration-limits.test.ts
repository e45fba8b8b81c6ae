/**
 * Issue 11 §3 and §6: the public share link is no mail relay (registrations are
 * limited per client and event, and mails per address and day), and anonymous
 * visitors who never file a request are purged a day later with their document.
 */
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { EVENT_MESSAGES } from '@sesame/shared';
import { files, mailOutbox, visitors } from '../src/db/schema';
import { storeFile } from '../src/files/uploads';
import { qrPng } from '../src/qr/qr';
import { purgeUnfiledVisitors } from '../src/visitors/purge';
import { multipart, useTestApp } from './helpers/app';
import {
  buildCompany,
  buildEvent,
  buildRequest,
  buildVisitor,
  visitorFormFields,
} from './helpers/factories';

const png = await qrPng('identity');
const today = () => {
  const d = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()}`;
};

const registration = (email: string) =>
  multipart(visitorFormFields({ email }), {
    request_image: { filename: 'id.png', contentType: 'image/png', bytes: png },
  });

describe('event registration is no mail relay', () => {
  const ctx = useTestApp();

  const register = (company: string, event: string, email: string, remoteAddress: string) =>
    ctx.app.inject({
      method: 'POST',
      url: `/api/evenement/${company}/${event}/register`,
      remoteAddress,
      ...registration(email),
    });

  it('one address gets a few registration mails a day, whatever the events and clients', async () => {
    const company = await buildCompany(ctx.db);
    const perDay = ctx.config.rateLimits.registrationMailsPerRecipientPerDay;
    const victim = `victim-${Date.now()}@example.com`;
    for (let i = 0; i <= perDay; i++) {
      const event = await buildEvent(ctx.db, { company, dateEvent: today(), timeEvent: '23:00' });
      const res = await register(company.slug, event.slug, victim, `198.51.100.${i + 1}`);
      if (i < perDay) expect(res.statusCode, res.body).toBe(201);
      else {
        expect(res.statusCode).toBe(429);
        expect(res.json().message).toBe(EVENT_MESSAGES.recipientLimit);
      }
    }
    const mails = await ctx.db
      .select({ n: sql<number>`count(*)::int` })
      .from(mailOutbox)
      .innerJoin(visitors, sql`${visitors.id}::text = ${mailOutbox.payload}->>'visitorId'`)
      .where(eq(visitors.email, victim));
    expect(mails[0]?.n).toBe(perDay);
  });

  it('one client registers a few people to one event per hour, not a list of strangers', async () => {
    const company = await buildCompany(ctx.db);
    const event = await buildEvent(ctx.db, { company, dateEvent: today(), timeEvent: '23:00' });
    const other = await buildEvent(ctx.db, { company, dateEvent: today(), timeEvent: '23:00' });
    const max = ctx.config.rateLimits.registrationsPerClientPerEvent;
    const client = '203.0.113.50';
    for (let i = 0; i < max; i++) {
      const res = await register(
        company.slug,
        event.slug,
        `guest-${i}-${Date.now()}@example.com`,
        client,
      );
      expect(res.statusCode, res.body).toBe(201);
    }
    const refused = await register(
      company.slug,
      event.slug,
      `one-more-${Date.now()}@example.com`,
      client,
    );
    expect(refused.statusCode).toBe(429);
    // Another event from the same client, and the same event from another client, still work.
    expect(
      (await register(company.slug, other.slug, `x-${Date.now()}@example.com`, client)).statusCode,
    ).toBe(201);
    expect(
      (await register(company.slug, event.slug, `y-${Date.now()}@example.com`, '203.0.113.51'))
        .statusCode,
    ).toBe(201);
  });
});

describe('unfiled anonymous visitors are purged after a day', () => {
  const ctx = useTestApp();

  it('deletes the visitor and the document of a form never followed by a request', async () => {
    const company = await buildCompany(ctx.db);
    const document = async () =>
      storeFile(
        ctx.db,
        ctx.app.storage,
        { field: 'request_image', filename: 'id.png', bytes: png, mediaType: 'image/png' },
        {
          companyId: company.id,
          ownerType: 'visitor_document',
        },
      );
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    const oldFile = await document();
    const unfiled = await buildVisitor(ctx.db, {
      company,
      createdAt: twoDaysAgo,
      requestImageId: oldFile.id,
    });
    const filed = await buildVisitor(ctx.db, { company, createdAt: twoDaysAgo });
    await buildRequest(ctx.db, { company, visitor: filed });
    const recent = await buildVisitor(ctx.db, { company, requestImageId: (await document()).id });

    expect(await purgeUnfiledVisitors(ctx.app.db, ctx.app.storage)).toBeGreaterThanOrEqual(1);

    const left = await ctx.db.select({ id: visitors.id }).from(visitors);
    const ids = left.map((v) => v.id);
    expect(ids).not.toContain(unfiled.id);
    expect(ids).toContain(filed.id);
    expect(ids).toContain(recent.id);
    expect(await ctx.db.select().from(files).where(eq(files.id, oldFile.id))).toEqual([]);
    expect(await ctx.app.storage.get(oldFile.storedName)).toBeNull();
  });
});
