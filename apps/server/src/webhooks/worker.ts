/**
 * The webhook worker (issue 34): posts the due rows of `webhook_deliveries`, signed as
 * Standard Webhooks says, and any number of server processes may run it.
 *
 * - Order: an endpoint's deliveries go one at a time, in `seq` order (the order their events
 *   were written). Only an endpoint's oldest unfinished delivery may be claimed, so a visit's
 *   `visitor.checked_out` never reaches a receiver before its `visitor.checked_in`, even
 *   when the first is being retried.
 * - Claim: one short transaction takes that head row `FOR UPDATE SKIP LOCKED` and marks it
 *   `sending` with a lease (its `next_attempt_at`); the attempt number fences a late writer.
 *   While the lease runs, the endpoint's head is not due: no other instance sends for it.
 * - Outcome: 2xx, delivered; 410 Gone, failed and the endpoint switched off ('gone'), its
 *   later deliveries kept waiting (switched on again, they go, within their 24 hours); any
 *   other answer, no answer, or a timeout: retried after WEBHOOK_LIMITS.backoffMs, until
 *   24 hours after the event, then failed. A destination refused (a private address while
 *   the operator does not allow it) is failed at once: a retry would be refused alike.
 *
 * `clock` is the worker's "now": tests move it ("a minute later") instead of waiting.
 */
import { createHmac } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { WEBHOOK_LIMITS } from '@sesame/shared';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { webhookDeliveries, webhookEndpoints } from '../db/schema';
import { OutboxWorker, workerJob } from '../outbox-worker';
import { SecretBox } from '../sso/secret-box';
import { safePost, type PostOptions, type PostResult } from './safe-post';

export interface WebhookWorkerOptions {
  leaseMs: number;
  pollMs: number;
  timeoutMs: number;
}

export const WEBHOOK_WORKER: WebhookWorkerOptions = {
  /** How long a claimed delivery stays its worker's: more than one attempt can take. */
  leaseMs: 60_000,
  /** How often the worker looks for due deliveries. */
  pollMs: 1_000,
  timeoutMs: WEBHOOK_LIMITS.timeoutMs,
};

type DeliveryRow = typeof webhookDeliveries.$inferSelect;

/**
 * Standard Webhooks' signature: HMAC-SHA256, keyed with the secret's bytes (the base64 after
 * `whsec_`), over `{id}.{timestamp}.{body}`, in base64, announced as `v1,`.
 */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The wait before attempt `attempts + 1`: the schedule's step, its last one repeated. */
export function webhookBackoffMs(attempts: number): number {
  const steps = WEBHOOK_LIMITS.backoffMs;
  // The index is between 0 and the last step: never undefined.
  return steps[Math.min(Math.max(attempts, 1), steps.length) - 1] as number;
}

/** What the log keeps of an answer: its first bytes. */
const kept = (text: string) => {
  const bytes = Buffer.from(text, 'utf8');
  return bytes.length <= WEBHOOK_LIMITS.answerKeptBytes
    ? text
    : bytes.subarray(0, WEBHOOK_LIMITS.answerKeptBytes).toString('utf8');
};

export class WebhookWorker extends OutboxWorker<typeof webhookDeliveries> {
  private readonly options: WebhookWorkerOptions;
  private readonly box: SecretBox;
  private readonly clock: () => Date;

  constructor(
    private readonly deps: {
      db: Db;
      config: Pick<Config, 'ssoSecretKey' | 'webhookAllowPrivate'>;
      log: FastifyBaseLogger;
      clock?: () => Date;
      /** How names are resolved when private addresses are refused (a test gives its own). */
      resolve?: PostOptions['resolve'];
    },
    options: Partial<WebhookWorkerOptions> = {},
  ) {
    const settings = { ...WEBHOOK_WORKER, ...options };
    super({ table: webhookDeliveries, state: webhookDeliveries.state }, settings.pollMs, (error) =>
      deps.log.error({ err: error }, 'webhook worker pass failed'),
    );
    this.options = settings;
    this.box = new SecretBox(deps.config.ssoSecretKey, 'webhook-secret');
    this.clock = deps.clock ?? (() => new Date());
  }

  /** Claims the oldest due head of an enabled endpoint (short transaction, SKIP LOCKED). */
  async claim(): Promise<DeliveryRow | null> {
    const now = this.clock();
    return this.claimOneDue(this.deps.db, {
      due: and(
        sql`${webhookDeliveries.state} in ('pending', 'retrying', 'sending')`,
        sql`${webhookDeliveries.nextAttemptAt} <= ${now.toISOString()}::timestamptz`,
        sql`${webhookDeliveries.seq} = (select min(h.seq) from webhook_deliveries h
              where h.endpoint_id = ${webhookDeliveries.endpointId}
                and h.state in ('pending', 'retrying', 'sending'))`,
        sql`exists (select 1 from webhook_endpoints e
              where e.id = ${webhookDeliveries.endpointId} and e.enabled)`,
      ),
      sending: {
        state: 'sending',
        attempts: this.nextAttempt(),
        nextAttemptAt: new Date(now.getTime() + this.options.leaseMs),
      },
    });
  }

  /** One attempt of a claimed delivery, and its outcome written down. */
  async deliver(row: DeliveryRow): Promise<void> {
    const { db, log } = this.deps;
    const now = this.clock();
    const [endpoint] = await db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, row.endpointId))
      .limit(1);
    const expired = now.getTime() > row.createdAt.getTime() + WEBHOOK_LIMITS.retryWindowMs;
    if (!endpoint || expired) {
      await this.finish(row, 'failed', { status: null, body: 'gave up after 24 hours' }, now);
      return;
    }
    const secret = this.box.open(endpoint.secretSealed);
    if (!secret) {
      // Sealed under another key (SSO_SECRET_KEY changed): nothing can be signed.
      await this.finish(row, 'failed', { status: null, body: 'secret unreadable' }, now);
      return;
    }
    const body = JSON.stringify(row.payload);
    const timestamp = Math.floor(now.getTime() / 1000);
    const result = await safePost(endpoint.url, body, {
      allowPrivate: this.deps.config.webhookAllowPrivate,
      timeoutMs: this.options.timeoutMs,
      resolve: this.deps.resolve,
      headers: {
        'webhook-id': row.messageId,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signWebhook(secret, row.messageId, timestamp, body),
      },
    });
    if (result.status !== null && result.status >= 200 && result.status < 300) {
      await this.finish(row, 'delivered', result, now);
    } else if (result.status === 410) {
      await db.transaction(async (tx) => {
        await this.finish(row, 'failed', result, now, tx);
        await tx
          .update(webhookEndpoints)
          .set({ enabled: false, disabledReason: 'gone' })
          .where(eq(webhookEndpoints.id, endpoint.id));
      });
      log.warn({ webhookId: endpoint.id }, 'webhook endpoint answered 410: switched off');
    } else if (result.refusal) {
      await this.finish(row, 'failed', result, now);
    } else {
      const next = new Date(now.getTime() + webhookBackoffMs(row.attempts));
      const beyond = next.getTime() > row.createdAt.getTime() + WEBHOOK_LIMITS.retryWindowMs;
      await this.finish(row, beyond ? 'failed' : 'retrying', result, now, db, next);
    }
  }

  private async finish(
    row: DeliveryRow,
    state: 'delivered' | 'failed' | 'retrying',
    result: PostResult,
    now: Date,
    db: Db = this.deps.db,
    next?: Date,
  ): Promise<void> {
    await db
      .update(webhookDeliveries)
      .set({
        state,
        lastAttemptAt: now,
        responseStatus: result.status,
        responseBody: kept(result.body),
        ...(next ? { nextAttemptAt: next } : {}),
      })
      .where(this.mine(row));
  }
}

/** The background job (registered in src/background.ts). */
export function webhookWorkerJob(app: FastifyInstance): () => Promise<void> {
  return workerJob(
    new WebhookWorker({ db: app.db, config: app.config, log: app.log.child({ job: 'webhooks' }) }),
  );
}
