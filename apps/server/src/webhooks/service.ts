/**
 * A company's webhook endpoints and their delivery log (issue 34). The events themselves are
 * written by the database (migration 0032's triggers call sesame_emit_webhook) in the
 * transaction of what happened; the worker (worker.ts) posts them. Here: the endpoints kept
 * by the company's admin side, the test event, and "Renvoyer".
 */
import { randomBytes } from 'node:crypto';
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import {
  WEBHOOK_LIMITS,
  WEBHOOK_TEST_EVENT,
  type ListQuery,
  type Webhook,
  type WebhookCreated,
  type WebhookDelivery,
  type WebhookEvent,
} from '@sesame/shared';
import { audit } from '../audit/service';
import { lockCompanyBelowLimit } from '../companies/limit';
import type { Db } from '../db/client';
import { listAnswer, offsetOf } from '../db/pagination';
import { found } from '../db/rows';
import { webhookDeliveries, webhookEndpoints } from '../db/schema';
import { notFound } from '../errors';
import type { SecretBox } from '../sso/secret-box';
import { assertDeliverable } from './destination';

/** Who changes an endpoint, and what the change needs from the server's settings. */
export interface WebhookActor {
  userId: string;
  box: SecretBox;
  allowPrivate: boolean;
}

type EndpointRow = typeof webhookEndpoints.$inferSelect;
type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/** A Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** A message id for an event Sésame makes itself (the database makes the others alike). */
export const newMessageId = () => `msg_${randomBytes(16).toString('hex')}`;

const iso = (at: Date | null) => (at ? at.toISOString() : null);

function present(row: EndpointRow, last?: { at: Date | null; ok: boolean | null }): Webhook {
  return {
    id: row.id,
    url: row.url,
    // jsonb column: written only from the webhook schema's events.
    events: row.events as WebhookEvent[],
    enabled: row.enabled,
    disabled_reason: row.enabled ? null : row.disabledReason === 'gone' ? 'gone' : 'manual',
    created_at: row.createdAt.toISOString(),
    created_by: row.createdBy,
    last_delivery_at: iso(last?.at ?? null),
    last_delivery_ok: last?.ok ?? null,
  };
}

/** A delivery as the log shows it; a row in flight ('sending') reads as pending. */
export function presentDelivery(row: DeliveryRow): WebhookDelivery {
  const state =
    row.state === 'delivered' || row.state === 'failed' || row.state === 'retrying'
      ? row.state
      : 'pending';
  return {
    id: row.id,
    message_id: row.messageId,
    type: row.type,
    state,
    attempts: row.attempts,
    response_status: row.responseStatus,
    response_body: row.responseBody,
    created_at: row.createdAt.toISOString(),
    last_attempt_at: iso(row.lastAttemptAt),
    next_attempt_at:
      state === 'pending' || state === 'retrying' ? row.nextAttemptAt.toISOString() : null,
  };
}

/** The company's endpoints, oldest first, each with its last finished delivery. */
export async function listWebhooks(db: Db, companyId: string): Promise<Webhook[]> {
  const rows = await db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.companyId, companyId))
    .orderBy(webhookEndpoints.createdAt);
  if (rows.length === 0) return [];
  const last = await db
    .selectDistinctOn([webhookDeliveries.endpointId], {
      endpointId: webhookDeliveries.endpointId,
      at: webhookDeliveries.lastAttemptAt,
      ok: sql<boolean>`${webhookDeliveries.state} = 'delivered'`,
    })
    .from(webhookDeliveries)
    .where(
      and(
        inArray(
          webhookDeliveries.endpointId,
          rows.map((r) => r.id),
        ),
        sql`${webhookDeliveries.lastAttemptAt} is not null`,
      ),
    )
    .orderBy(webhookDeliveries.endpointId, desc(webhookDeliveries.lastAttemptAt));
  const byEndpoint = new Map(last.map((l) => [l.endpointId, l]));
  return rows.map((row) => present(row, byEndpoint.get(row.id)));
}

/** One endpoint of the company, or 404 (another company's endpoint looks missing). */
export async function findWebhook(
  db: Db,
  companyId: string,
  webhookId: string,
): Promise<EndpointRow> {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, webhookId), eq(webhookEndpoints.companyId, companyId)))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

/**
 * Adds an endpoint: its URL checked as it will be at each send (400 on `url`), at most
 * WEBHOOK_LIMITS.endpointsMax per company (409, counted under the company's row lock), its
 * secret the one given or a new one, sealed. The answer carries the secret, this once.
 */
export async function createWebhook(
  db: Db,
  companyId: string,
  input: { url: string; events: WebhookEvent[]; secret?: string | undefined },
  actor: WebhookActor,
): Promise<WebhookCreated> {
  assertDeliverable(input.url, actor.allowPrivate);
  const secret = input.secret ?? newWebhookSecret();
  return db.transaction(async (tx) => {
    await lockCompanyBelowLimit(tx, companyId, {
      table: webhookEndpoints,
      held: eq(webhookEndpoints.companyId, companyId),
      max: WEBHOOK_LIMITS.endpointsMax,
      tooMany: (m) => m.integrations.webhooksTooMany(WEBHOOK_LIMITS.endpointsMax),
    });
    const [row] = await tx
      .insert(webhookEndpoints)
      .values({
        companyId,
        url: input.url,
        events: input.events,
        secretSealed: actor.box.seal(secret),
        createdBy: actor.userId,
      })
      .returning();
    const created = found(row, 'the webhook endpoint just inserted');
    await audit(tx, {
      companyId,
      actorUserId: actor.userId,
      action: 'webhook.created',
      subjectType: 'webhook',
      subjectId: created.id,
      detail: { host: new URL(input.url).host, events: input.events },
    });
    return { ...present(created), secret };
  });
}

/** Changes an endpoint's URL or events, or switches it on or off (on again after a 410). */
export async function updateWebhook(
  db: Db,
  companyId: string,
  webhookId: string,
  change: {
    url?: string | undefined;
    events?: WebhookEvent[] | undefined;
    enabled?: boolean | undefined;
  },
  actor: WebhookActor,
): Promise<Webhook> {
  if (change.url !== undefined) assertDeliverable(change.url, actor.allowPrivate);
  return db.transaction(async (tx) => {
    const current = await findWebhook(tx, companyId, webhookId);
    const [row] = await tx
      .update(webhookEndpoints)
      .set({
        ...(change.url !== undefined ? { url: change.url } : {}),
        ...(change.events !== undefined ? { events: change.events } : {}),
        ...(change.enabled !== undefined
          ? { enabled: change.enabled, disabledReason: change.enabled ? null : 'manual' }
          : {}),
      })
      .where(eq(webhookEndpoints.id, current.id))
      .returning();
    await audit(tx, {
      companyId,
      actorUserId: actor.userId,
      action: 'webhook.updated',
      subjectType: 'webhook',
      subjectId: current.id,
      detail: {
        ...(change.url !== undefined ? { host: new URL(change.url).host } : {}),
        ...(change.events !== undefined ? { events: change.events } : {}),
        ...(change.enabled !== undefined ? { enabled: change.enabled } : {}),
      },
    });
    return present(found(row, 'the webhook endpoint just updated'));
  });
}

/** Deletes an endpoint and its log. */
export async function deleteWebhook(
  db: Db,
  companyId: string,
  webhookId: string,
  actor: Pick<WebhookActor, 'userId'>,
): Promise<void> {
  await db.transaction(async (tx) => {
    const current = await findWebhook(tx, companyId, webhookId);
    await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.id, current.id));
    await audit(tx, {
      companyId,
      actorUserId: actor.userId,
      action: 'webhook.deleted',
      subjectType: 'webhook',
      subjectId: current.id,
      detail: { host: new URL(current.url).host },
    });
  });
}

/**
 * Queues a test event for one endpoint. The worker sends only to endpoints switched on, so
 * for one switched off (the page offers no test then) it waits until it is switched on.
 */
export async function queueTestEvent(
  db: Db,
  companyId: string,
  webhookId: string,
  now: Date = new Date(),
): Promise<void> {
  const endpoint = await findWebhook(db, companyId, webhookId);
  await db.insert(webhookDeliveries).values({
    endpointId: endpoint.id,
    companyId,
    messageId: newMessageId(),
    type: WEBHOOK_TEST_EVENT,
    payload: {
      type: WEBHOOK_TEST_EVENT,
      timestamp: now.toISOString(),
      data: { webhook_id: endpoint.id, company_id: companyId },
    },
    nextAttemptAt: now,
  });
}

/** One page of an endpoint's log, newest first. */
export async function listDeliveries(
  db: Db,
  companyId: string,
  webhookId: string,
  query: ListQuery,
) {
  const endpoint = await findWebhook(db, companyId, webhookId);
  const where = eq(webhookDeliveries.endpointId, endpoint.id);
  const perPage = Math.min(query.per_page, WEBHOOK_LIMITS.logPageMax);
  const page = { ...query, per_page: perPage };
  const [total] = await db.select({ n: count() }).from(webhookDeliveries).where(where);
  const rows = await db
    .select()
    .from(webhookDeliveries)
    .where(where)
    .orderBy(desc(webhookDeliveries.seq))
    .limit(perPage)
    .offset(offsetOf(page));
  return listAnswer(page, Number(total?.n ?? 0), rows.map(presentDelivery));
}

/**
 * "Renvoyer": the same message (its id and body, so a receiver that keeps ids sees a repeat,
 * not a new event) queued again, after the endpoint's others.
 */
export async function resendDelivery(
  db: Db,
  companyId: string,
  webhookId: string,
  deliveryId: string,
  actor: Pick<WebhookActor, 'userId'>,
  now: Date = new Date(),
): Promise<void> {
  await db.transaction(async (tx) => {
    const endpoint = await findWebhook(tx, companyId, webhookId);
    const [original] = await tx
      .select()
      .from(webhookDeliveries)
      .where(
        and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, endpoint.id)),
      )
      .limit(1);
    if (!original) throw notFound();
    await tx.insert(webhookDeliveries).values({
      endpointId: endpoint.id,
      companyId,
      messageId: original.messageId,
      type: original.type,
      payload: original.payload,
      nextAttemptAt: now,
    });
    await audit(tx, {
      companyId,
      actorUserId: actor.userId,
      action: 'webhook.resent',
      subjectType: 'webhook',
      subjectId: endpoint.id,
      detail: { messageId: original.messageId, type: original.type },
    });
  });
}

/** The hourly sweep (privacy/retention.ts): finished deliveries past WEBHOOK_LIMITS.logKeptDays. */
export async function forgetOldDeliveries(db: Db, now: Date = new Date()): Promise<number> {
  const before = new Date(now.getTime() - WEBHOOK_LIMITS.logKeptDays * 24 * 60 * 60_000);
  const gone = await db
    .delete(webhookDeliveries)
    .where(
      and(
        inArray(webhookDeliveries.state, ['delivered', 'failed']),
        sql`${webhookDeliveries.createdAt} < ${before.toISOString()}::timestamptz`,
      ),
    )
    .returning({ id: webhookDeliveries.id });
  return gone.length;
}

/**
 * A person's erasure (privacy/rights.ts): every delivery whose body names one of their
 * records, sent or not, goes with them (a body holds the visitor's id and name).
 */
export async function forgetDeliveriesOf(tx: Db, recordIds: readonly string[]): Promise<void> {
  if (recordIds.length === 0) return;
  await tx.delete(webhookDeliveries).where(
    sql`${webhookDeliveries.payload}::text like any (array[${sql.join(
      recordIds.map((id) => sql`${`%${id}%`}`),
      sql`, `,
    )}])`,
  );
}
