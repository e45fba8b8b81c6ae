/**
 * Per-person rights (issue 16): everything Sésame holds about one person, exported as a
 * ZIP (a JSON file and the documents), or erased at once. A visitor is every visitor row
 * of the company with the same e-mail address (one per request or registration); a card
 * holder is their QR user or member row. Erasure folds their checks into the daily counts
 * first, so statistics survive, then deletes the person, their requests, mails and files.
 */
import { forgetDeliveriesOf } from '../webhooks/service';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { zipSync, strToU8 } from 'fflate';
import { extensionOf, formatUidn, normalizeUidn } from '@sesame/shared';
import { z } from 'zod';
import type { Database, Db } from '../db/client';
import { rowsOf } from '../db/rows';
import {
  auditEvents,
  files,
  chatOutbox,
  mailOutbox,
  qrUsers,
  scanRequests,
  signatures,
  userChecks,
  visitRequests,
  visitorChecks,
  visitors,
} from '../db/schema';
import type { FileStorage } from '../files/storage';
import { pdfContextOf } from '../documents/signing';
import { signaturePdf } from '../documents/pdf';

export type PersonKind = 'visitor' | 'qr_user';

export interface Person {
  kind: PersonKind;
  id: string;
  companyId: string;
  name: string;
  /** Every row that is this person (visitors: one per request or registration). */
  ids: string[];
  uidns: string[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Every card of one holder: the card, the ones it replaced and the ones that replaced it. */
async function cardChain(db: Db, id: string): Promise<{ id: string; uidn: string }[]> {
  return rowsOf(
    db,
    z.object({ id: z.string(), uidn: z.string() }),
    sql`
    with recursive chain(id) as (
      select ${id}::uuid
      union
      select q.id from qr_users q, chain c
      where q.replaced_by = c.id
         or q.id = (select replaced_by from qr_users where id = c.id)
    )
    select q.id, q.uidn from qr_users q join chain using (id)`,
  );
}

/** The person behind a visitor or card holder id (or their code), or null. */
export async function findPerson(db: Db, kind: PersonKind, key: string): Promise<Person | null> {
  const byId = UUID.test(key);
  const code = byId ? '' : formatUidn(normalizeUidn(key));
  if (kind === 'qr_user') {
    const [row] = await db
      .select()
      .from(qrUsers)
      .where(byId ? eq(qrUsers.id, key) : eq(qrUsers.uidn, code))
      .limit(1);
    if (!row) return null;
    const cards = await cardChain(db, row.id);
    return {
      kind,
      id: row.id,
      companyId: row.companyId,
      name: [row.firstname, row.lastname].filter(Boolean).join(' '),
      ids: cards.map((c) => c.id),
      uidns: cards.map((c) => c.uidn),
    };
  }
  const [row] = await db
    .select()
    .from(visitors)
    .where(byId ? eq(visitors.id, key) : eq(visitors.uidn, code))
    .limit(1);
  if (!row) return null;
  const same = row.email
    ? await db
        .select({ id: visitors.id, uidn: visitors.uidn })
        .from(visitors)
        .where(
          and(
            eq(visitors.companyId, row.companyId),
            eq(sql`lower(${visitors.email})`, row.email.toLowerCase()),
          ),
        )
    : [{ id: row.id, uidn: row.uidn }];
  return {
    kind,
    id: row.id,
    companyId: row.companyId,
    name: `${row.firstname} ${row.lastname}`.trim(),
    ids: same.map((r) => r.id),
    uidns: same.map((r) => r.uidn),
  };
}

/** Every record of the person, and the files to put beside it. */
async function collect(db: Db, person: Person) {
  if (person.kind === 'qr_user') {
    const profile = await db.select().from(qrUsers).where(inArray(qrUsers.id, person.ids));
    const checks = await db
      .select()
      .from(userChecks)
      .where(inArray(userChecks.qrUserId, person.ids));
    const documents = await db
      .select()
      .from(files)
      .where(
        inArray(
          files.id,
          profile
            .flatMap((p) => (p.documentId ? [p.documentId] : []))
            .concat(['00000000-0000-0000-0000-000000000000']),
        ),
      );
    return { profile, requests: [], checks, mails: [], documents, signed: [] };
  }
  const profile = await db.select().from(visitors).where(inArray(visitors.id, person.ids));
  const requests = await db
    .select()
    .from(visitRequests)
    .where(inArray(visitRequests.visitorId, person.ids));
  const checks = await db
    .select()
    .from(visitorChecks)
    .where(inArray(visitorChecks.visitorId, person.ids));
  const mails = await db
    .select({
      id: mailOutbox.id,
      kind: mailOutbox.kind,
      to: mailOutbox.toAddress,
      status: mailOutbox.status,
      sentAt: mailOutbox.sentAt,
      createdAt: mailOutbox.createdAt,
    })
    .from(mailOutbox)
    .where(inArray(sql`${mailOutbox.payload}->>'visitorId'`, person.ids));
  // The identity documents, and the photos a kiosk took at a walk-in (issue 29).
  const fileIds = profile.flatMap((p) =>
    [p.requestImageId, p.photoFileId].filter((id): id is string => id !== null),
  );
  const documents = fileIds.length
    ? await db.select().from(files).where(inArray(files.id, fileIds))
    : [];
  const signed = await signaturesOf(db, person);
  return { profile, requests, checks, mails, documents, signed };
}

/**
 * The documents a visitor signed (issue 31): those of their visits, and those signed with
 * their e-mail address in the company (a signature outlives the visit it was made for).
 */
async function signaturesOf(db: Db, person: Person) {
  return db
    .select()
    .from(signatures)
    .where(
      and(
        eq(signatures.companyId, person.companyId),
        sql`(${inArray(signatures.visitorId, person.ids)} or ${signatures.signerEmail} in (
          select lower(v.email) from visitors v
          where v.id in (${sql.join(
            person.ids.map((id) => sql`${id}::uuid`),
            sql`, `,
          )}) and v.email <> ''))`,
      ),
    )
    .orderBy(signatures.signedAt);
}

/** What an erasure will remove (its confirmation names it). */
export async function erasurePreview(db: Db, person: Person) {
  const held = await collect(db, person);
  return {
    name: person.name,
    documents: held.documents.length,
    requests: held.requests.length,
    checks: held.checks.length,
    mails: held.mails.length,
    signatures: held.signed.length,
  };
}

/** The ZIP: `donnees.json` (every record, no storage name) and `documents/`. */
export async function exportPerson(
  db: Db,
  storage: FileStorage,
  person: Person,
): Promise<Uint8Array> {
  const held = await collect(db, person);
  const entries: Record<string, Uint8Array> = {};
  const documents = [];
  for (const file of held.documents) {
    const bytes = await storage.get(file.storedName);
    const name = `documents/${file.id}.${extensionOf(file.mediaType)}`;
    if (bytes) entries[name] = new Uint8Array(bytes);
    documents.push({
      id: file.id,
      file: bytes ? name : null,
      mediaType: file.mediaType,
      size: file.size,
      sha256: file.sha256,
      createdAt: file.createdAt,
    });
  }
  // Each signed document: what was signed and how (the JSON), and its PDF beside it (the
  // stored one, else made again from the row: the same bytes), which carries the drawing.
  const signed = [];
  for (const row of held.signed) {
    const file = row.pdfFileId
      ? (await db.select().from(files).where(eq(files.id, row.pdfFileId)).limit(1))[0]
      : undefined;
    const bytes =
      (file ? await storage.get(file.storedName) : null) ??
      (await signaturePdf(row, await pdfContextOf(db, row.siteId)));
    const name = `signatures/${row.id}.pdf`;
    entries[name] = new Uint8Array(bytes);
    signed.push({
      id: row.id,
      title: row.title,
      version: row.version,
      language: row.language,
      signerName: row.signerName,
      method: row.method,
      signedAt: row.signedAt,
      hash: row.hash,
      file: name,
    });
  }
  const accessLog = await db
    .select({
      at: auditEvents.at,
      action: auditEvents.action,
      actorUserId: auditEvents.actorUserId,
    })
    .from(auditEvents)
    .where(inArray(auditEvents.subjectId, person.ids));
  const json = {
    exportedAt: new Date().toISOString(),
    kind: person.kind,
    profile: held.profile,
    requests: held.requests,
    checks: held.checks,
    mails: held.mails,
    documents,
    signatures: signed,
    accessLog,
  };
  entries['donnees.json'] = strToU8(JSON.stringify(json, null, 2));
  return zipSync(entries, { level: 6 });
}

/**
 * Erases the person at once: checks folded into daily counts, then the person's rows
 * (requests and checks go with them), mails, scan answers and files. Answers the
 * counts and the stored names, whose bytes the caller removes once committed.
 */
export async function erasePerson(tx: Db, person: Person) {
  const held = await collect(tx, person);
  const kind = person.kind === 'visitor' ? 'visitor' : 'user';
  const table = person.kind === 'visitor' ? 'visitor_checks' : 'user_checks';
  const column = person.kind === 'visitor' ? 'visitor_id' : 'qr_user_id';
  const ids = sql.join(
    person.ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  await tx.execute(sql`
    insert into check_daily_counts (company_id, day, kind, checks)
    select k.company_id, to_char(k.check_in_at at time zone s.timezone, 'YYYY-MM-DD'), ${kind}, count(*)::int
    from ${sql.raw(table)} k join sites s on s.id = k.site_id
    where k.${sql.raw(column)} in (${ids})
    group by k.company_id, 2
    on conflict (company_id, day, kind) do update set checks = check_daily_counts.checks + excluded.checks`);
  // Evacuation roll calls keep a copy of the name they counted: it goes with the person.
  await tx.execute(sql`delete from roll_call_people where person_id in (${ids})`);
  await tx
    .delete(scanRequests)
    .where(
      sql`${scanRequests.result}::text similar to ${`%(${person.uidns.map((u) => u.replace(/[^A-Za-z0-9-]/g, '')).join('|')})%`}`,
    );
  // Their signed documents (issue 31): the rows, their PDFs' files (below) and their mails.
  const signatureIds = held.signed.map((row) => row.id);
  const signedFiles = held.signed.flatMap((row) => (row.pdfFileId ? [row.pdfFileId] : []));
  if (signatureIds.length) {
    await tx
      .delete(mailOutbox)
      .where(inArray(sql`${mailOutbox.payload}->>'signatureId'`, signatureIds));
    await tx.delete(signatures).where(inArray(signatures.id, signatureIds));
  }
  if (person.kind === 'visitor') {
    await tx
      .delete(mailOutbox)
      .where(inArray(sql`${mailOutbox.payload}->>'visitorId'`, person.ids));
    // Issue 34: the webhook bodies that name them (the chat rows go with the visitor's ids).
    await forgetDeliveriesOf(tx, person.ids);
    await tx
      .delete(chatOutbox)
      .where(inArray(sql`${chatOutbox.payload}->>'visitorId'`, person.ids));
    await tx.delete(visitors).where(inArray(visitors.id, person.ids));
  } else {
    await tx.delete(qrUsers).where(inArray(qrUsers.id, person.ids));
  }
  const fileIds = held.documents.map((f) => f.id).concat(signedFiles);
  const removed = fileIds.length
    ? await tx
        .delete(files)
        .where(inArray(files.id, fileIds))
        .returning({ storedName: files.storedName })
    : [];
  return {
    counts: {
      documents: held.documents.length,
      requests: held.requests.length,
      checks: held.checks.length,
      mails: held.mails.length,
      signatures: held.signed.length,
      records: person.ids.length,
    },
    storedNames: removed.map((r) => r.storedName),
  };
}

export type { Database };
