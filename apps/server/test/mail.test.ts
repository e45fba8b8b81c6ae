/**
 * The visitor-code mail through a real SMTP server (smtp-server), parsed with
 * mailparser; the inline QR is decoded with zbarimg.
 */
import { execFile } from 'node:child_process';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { eq, ne, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { simpleParser } from 'mailparser';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackgroundWork } from '../src/background';
import { mailOutbox } from '../src/db/schema';
import { fileTransport, smtpTransport } from '../src/mail/transport';
import { MailWorker, retryDelayMs } from '../src/mail/worker';
import { qrPng } from '../src/qr/qr';
import { createConfirmedEventRegistration } from '../src/visitors/service';
import { as, multipart, tokenFor, useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { buildEvent, buildTenant, queueCodeMail } from './helpers/factories';
import { until } from './helpers/poll';
import { freePort, startSmtp, type TestSmtp } from './helpers/smtp';

const run = promisify(execFile);

async function decodeQr(png: Buffer): Promise<string> {
  const file = path.join(os.tmpdir(), `sesame-mail-qr-${process.pid}-${Date.now()}.png`);
  await writeFile(file, png);
  const { stdout } = await run('sh', ['-c', `zbarimg --raw -q '${file}' 2>/dev/null`]);
  return stdout.trim();
}

function captureLog(): { log: FastifyBaseLogger; lines: string[] } {
  const lines: string[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
  return { log: log as unknown as FastifyBaseLogger, lines };
}

describe(`visitor code mail (${testDatabaseKind})`, () => {
  const ctx = useTestApp();
  let acme: Awaited<ReturnType<typeof buildTenant>>;
  let smtp: TestSmtp;

  beforeAll(async () => {
    acme = await buildTenant(ctx.db);
    smtp = await startSmtp(await freePort());
  });
  afterAll(async () => {
    await smtp?.stop();
  });

  const workerFor = (url: string, options: ConstructorParameters<typeof MailWorker>[1] = {}) =>
    new MailWorker(
      { db: ctx.db, config: ctx.config, log: captureLog().log, transport: smtpTransport(url) },
      options,
    );

  /** The whole journey through the API: form, request, Valider. */
  async function confirmedVisitor(overrides: Record<string, string> = {}) {
    const png = await qrPng('id document');
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/visitor/create',
      ...multipart(
        {
          company_id: acme.company.slug,
          firstname: 'Awa',
          lastname: 'Koné',
          id_number: 'CI-0042',
          organisation_name: 'Acme',
          email: `awa-${Math.random().toString(16).slice(2, 8)}@example.com`,
          contact: '0701020304',
          address: 'Rue 12',
          city: 'Abidjan',
          country: 'Côte d’Ivoire',
          request_date: '24/11/2030',
          request_time: '10:30',
          // Issue 16: the privacy notice accepted.
          privacy_accepted: '1',
          ...overrides,
        },
        { request_image: { filename: 'id.png', contentType: 'image/png', bytes: png } },
      ),
    });
    const visitorId = created.json().data.visitor_id as string;
    const email = created.json().data.email as string;
    const request = await ctx.app.inject({
      method: 'POST',
      url: '/api/requests/create',
      payload: { visitor_id: visitorId, host: 'M. Diallo', reason: 'Entretien <annuel>' },
    });
    const id = request.json().data.id as string;
    const token = await tokenFor(ctx.app, acme.staff.ROLE_EMPLOYEE.email);
    const confirmed = await as(
      ctx.app,
      token,
    )({
      method: 'PUT',
      url: `/api/requests/update/${id}`,
      payload: { status: 1, confirmed: 1 },
    });
    expect(confirmed.statusCode).toBe(200);
    // This suite is about the code mail; the host loop's mails (acknowledgement, host
    // request) have their own suite (host-loop.test.ts).
    await ctx.db.delete(mailOutbox).where(ne(mailOutbox.kind, 'visitor_code'));
    return { visitorId, email, uidn: confirmed.json().data.uidn as string };
  }

  const mailTo = (address: string) =>
    smtp.messages.filter((m) =>
      (Array.isArray(m.to) ? m.to : [m.to]).some((to) =>
        to?.value.some((v) => v.address === address),
      ),
    );

  it('sends the confirmation in French with the details, the code and an inline QR that decodes to the scan URL', async () => {
    const { email, uidn } = await confirmedVisitor();
    const handled = await workerFor(smtp.url).drain();
    expect(handled).toBeGreaterThanOrEqual(1);
    const [mail, ...more] = mailTo(email);
    expect(more).toHaveLength(0);
    expect(mail!.subject).toBe(`Votre code visiteur – ${acme.company.name}`);
    expect(mail!.from?.text).toContain('no-reply@sesame.test');
    expect(mail!.text).toContain('Bonjour Awa Koné,');
    expect(mail!.text).toContain(`Votre rendez-vous chez ${acme.company.name} est confirmé.`);
    expect(mail!.text).toContain('dimanche 24 novembre 2030');
    expect(mail!.text).toContain('10:30');
    expect(mail!.text).toContain('M. Diallo');
    expect(mail!.text).toContain(`Votre code visiteur : ${uidn}`);
    expect(mail!.text).toContain(
      `http://sesame.test/company/${acme.company.slug}/meeting-request-qr/${uidn}`,
    );
    const html = String(mail!.html);
    expect(html).toContain(uidn);
    expect(html).toContain('Entretien &lt;annuel&gt;');
    expect(html).not.toContain('<annuel>');
    const qr = mail!.attachments.find((a) => a.contentType === 'image/png');
    expect(qr?.contentDisposition).toBe('inline');
    expect(qr?.cid).toBeTruthy();
    // mailparser replaces cid: references by data URLs when it inlines the image.
    expect(html.includes(`cid:${qr!.cid}`) || html.includes('data:image/png;base64')).toBe(true);
    expect(await decodeQr(qr!.content)).toBe(`http://sesame.test/scan/${uidn}`);
    expect(mail!.messageId).toMatch(/^<outbox-[0-9a-f-]+@sesame>$/);

    const [row] = await ctx.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email));
    expect(row).toMatchObject({ status: 'sent', attempts: 1, lastError: null });
    expect(row!.sentAt).toBeInstanceOf(Date);
  });

  it('writes in English when the visitor chose English', async () => {
    const { email, uidn } = await confirmedVisitor({ language: 'en' });
    await workerFor(smtp.url).drain();
    const [mail] = mailTo(email);
    expect(mail!.subject).toBe(`Your visitor code – ${acme.company.name}`);
    expect(mail!.text).toContain('Hello Awa Koné,');
    expect(mail!.text).toContain('Sunday, 24 November 2030');
    expect(mail!.text).toContain(`Your visitor code: ${uidn}`);
  });

  it('with the SMTP server down at first, retries with back-off and delivers exactly once when it is back', async () => {
    const port = await freePort();
    const url = `smtp://127.0.0.1:${port}`;
    const options = { baseDelayMs: 300, maxDelayMs: 1000 };
    const { email } = await confirmedVisitor();
    // Only this mail is due: the earlier ones were sent.
    const worker = workerFor(url, options);
    const other = workerFor(url, options);

    expect(await worker.drain()).toBe(1);
    const [failed] = await ctx.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email));
    expect(failed).toMatchObject({ status: 'pending', attempts: 1 });
    expect(failed!.lastError).toMatch(/ECONNREFUSED|connect/i);
    expect(failed!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + 100);
    // Not due yet: nothing is retried before the back-off.
    expect(await worker.drain()).toBe(0);

    const late = await startSmtp(port);
    try {
      // Once the back-off has run out, two workers race for the row: one sends, the other finds nothing.
      await until(async () => {
        const [row] = await ctx.db
          .select({ due: sql<boolean>`${mailOutbox.nextAttemptAt} <= now()` })
          .from(mailOutbox)
          .where(eq(mailOutbox.toAddress, email));
        return row!.due;
      }, 'the back-off to run out');
      const handled = await Promise.all([worker.drain(), other.drain()]);
      expect(handled.sort()).toEqual([0, 1]);
      expect(await worker.drain()).toBe(0);
      const received = await until(() => {
        const found = late.messages.filter((m) => m.text?.includes('Bonjour Awa Koné'));
        return found.length > 0 && found;
      }, 'the SMTP server to receive the mail');
      expect(received).toHaveLength(1);
      const [sent] = await ctx.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email));
      expect(sent).toMatchObject({ status: 'sent', attempts: 2 });
    } finally {
      await late.stop();
    }
  });

  it('backs off exponentially, capped', () => {
    expect(retryDelayMs(1)).toBe(15_000);
    expect(retryDelayMs(2)).toBe(30_000);
    expect(retryDelayMs(3)).toBe(60_000);
    expect(retryDelayMs(20)).toBe(30 * 60_000);
  });

  it('gives up after the last attempt (status failed)', async () => {
    await queueCodeMail(ctx.db, acme.company, 'never@example.com');
    const dead = `smtp://127.0.0.1:${await freePort()}`;
    const worker = workerFor(dead, { baseDelayMs: 1, maxDelayMs: 1, maxAttempts: 2 });
    await worker.drain();
    // The second attempt, once its 1 ms back-off has run out, is the last.
    const row = await until(async () => {
      await worker.drain();
      const [found] = await ctx.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.toAddress, 'never@example.com'));
      return found!.attempts >= 2 && found;
    }, 'the second attempt');
    expect(row).toMatchObject({ status: 'failed', attempts: 2 });
  });

  it('takes back a row whose worker died while sending, once its lease has run out', async () => {
    await queueCodeMail(ctx.db, acme.company, 'lease@example.com');
    const crashed = workerFor(smtp.url, { leaseMs: 200 });
    const claimed = await crashed.claim();
    expect(claimed.map((r) => r.toAddress)).toEqual(['lease@example.com']);
    const other = workerFor(smtp.url, { leaseMs: 200 });
    expect(await other.drain()).toBe(0);
    // Once the 200 ms lease has run out, the other worker takes the row and sends it.
    await until(async () => {
      await other.drain();
      return mailTo('lease@example.com').length > 0;
    }, 'the lease to run out');
    expect(mailTo('lease@example.com')).toHaveLength(1);
  });

  it('cancels the mail of a visitor deleted before it went out', async () => {
    const { visitor } = await queueCodeMail(ctx.db, acme.company, 'gone@example.com');
    const token = await tokenFor(ctx.app, acme.staff.ROLE_ADMIN.email);
    const del = await as(
      ctx.app,
      token,
    )({ method: 'DELETE', url: `/api/visitor/delete/${visitor.id}` });
    expect(del.statusCode).toBe(200);
    await workerFor(smtp.url).drain();
    const [row] = await ctx.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.toAddress, 'gone@example.com'));
    expect(row!.status).toBe('cancelled');
    expect(mailTo('gone@example.com')).toHaveLength(0);
  });

  it('an event registration mails at once with the event details', async () => {
    const event = await buildEvent(ctx.db, {
      company: acme.company,
      name: 'Forum Emploi',
      location: 'Salle Ivoire',
      addressName: 'Boulevard Latrille',
      city: 'Abidjan',
      country: 'SN',
      dateEvent: '05/12/2030',
      timeEvent: '09:30',
    });
    const { visitor } = await ctx.db.transaction((tx) =>
      createConfirmedEventRegistration(tx, ctx.app.storage, {
        event,
        document: {
          field: 'request_image',
          filename: 'id.pdf',
          bytes: Buffer.from('%PDF-1.4\n%%EOF\n'),
          mediaType: 'application/pdf',
        },
        fields: {
          company_id: acme.company.id,
          firstname: 'Guest',
          lastname: 'Event',
          id_number: 'X1',
          organisation_name: 'Org',
          email: 'event-guest@example.com',
          contact: '0102030405',
          address: '',
          city: '',
          country: '',
          state: '',
          zipcode: '',
          host: '',
          reason: '',
          request_date: '',
          request_time: '',
          visitor_type: '',
          language: 'fr',
        },
      }),
    );
    await workerFor(smtp.url).drain();
    const [mail] = mailTo('event-guest@example.com');
    expect(mail!.subject).toBe("Votre code d'accès – Forum Emploi");
    expect(mail!.text).toContain("Votre inscription à l'évènement « Forum Emploi »");
    expect(mail!.text).toContain('Salle Ivoire');
    // The country is stored as its code and named in the visitor's language.
    expect(mail!.text).toContain('Boulevard Latrille, Abidjan, Sénégal');
    expect(mail!.text).toContain('jeudi 5 décembre 2030');
    expect(mail!.text).toContain('09:30');
    const qr = mail!.attachments.find((a) => a.contentType === 'image/png');
    expect(await decodeQr(qr!.content)).toBe(`http://sesame.test/scan/${visitor.uidn}`);
  });

  it('without SMTP_URL, writes an .eml file under DATA_DIR/mail and logs where', async () => {
    const { visitor } = await queueCodeMail(ctx.db, acme.company, 'file@example.com');
    const folder = path.join(ctx.config.dataDir, 'mail');
    const { log, lines } = captureLog();
    const worker = new MailWorker({
      db: ctx.db,
      config: ctx.config,
      log,
      transport: fileTransport(folder, log),
    });
    expect(await worker.drain()).toBe(1);
    const names = await readdir(folder);
    expect(names).toHaveLength(1);
    expect(names[0]).toMatch(/\.eml$/);
    const file = path.join(folder, names[0]!);
    const parsed = await simpleParser(await readFile(file));
    expect(parsed.to && !Array.isArray(parsed.to) ? parsed.to.text : '').toBe('file@example.com');
    expect(parsed.text).toContain(visitor.uidn);
    expect(lines.join('')).toContain(`mail written to ${file}`);
  });

  it('runs as background work: the job registered in background.ts sends queued mail', async () => {
    await queueCodeMail(ctx.db, acme.company, 'job@example.com');
    const folder = path.join(ctx.config.dataDir, 'mail');
    const before = (await readdir(folder).catch(() => [])).length;
    const stop = startBackgroundWork(ctx.app);
    try {
      await until(async () => {
        const [row] = await ctx.db
          .select()
          .from(mailOutbox)
          .where(eq(mailOutbox.toAddress, 'job@example.com'));
        return row!.status === 'sent';
      }, 'the background job to send the mail');
    } finally {
      await stop();
    }
    expect((await readdir(folder)).length).toBe(before + 1);
  });
});
