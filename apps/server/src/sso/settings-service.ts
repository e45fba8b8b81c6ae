/**
 * A company's single sign-on settings (issue 33), as its admin side keeps them: the
 * provider (issuer, client id, the client secret sealed by the SecretBox and never answered),
 * the e-mail domains it covers (`sso_domains`: one company per domain), how groups give
 * roles, and whether accounts are created at their first sign-in and passwords still work.
 * Saving is one transaction with its audit entry; "Tester la connexion" reads the issuer's
 * discovery document and says in one sentence what it found.
 */
import { remapDirectoryMembers } from '../scim/roles';
import { and, asc, eq, inArray, ne } from 'drizzle-orm';
import { SSO_LIMITS, type Say, type SsoSettings, type SsoTestResult } from '@sesame/shared';
import { audit } from '../audit/service';
import type { Db } from '../db/client';
import { companySso, ssoDomains } from '../db/schema';
import { badRequest, conflict, isUniqueViolation } from '../errors';
import type { SecretBox } from './secret-box';
import type { SsoRow } from './settings-presenter';

export interface StoredSso {
  row: SsoRow | null;
  domains: string[];
}

/** The company's row (null when never saved) and its domains, sorted. */
export async function readSso(db: Db, companyId: string): Promise<StoredSso> {
  const [row] = await db.select().from(companySso).where(eq(companySso.companyId, companyId));
  const domains = await db
    .select({ domain: ssoDomains.domain })
    .from(ssoDomains)
    .where(eq(ssoDomains.companyId, companyId))
    .orderBy(asc(ssoDomains.domain));
  return { row: row ?? null, domains: domains.map((d) => d.domain) };
}

/** Whether the row holds a client secret that opens under the server's key. */
export const hasClientSecret = (row: SsoRow | null, box: SecretBox): boolean =>
  Boolean(row?.clientSecretEncrypted && box.open(row.clientSecretEncrypted) !== null);

/** The first of `domains` another company's provider already covers, if any. */
async function domainHeldElsewhere(
  db: Db,
  companyId: string,
  domains: readonly string[],
): Promise<string | undefined> {
  if (domains.length === 0) return undefined;
  const held = await db
    .select({ domain: ssoDomains.domain })
    .from(ssoDomains)
    .where(and(inArray(ssoDomains.domain, [...domains]), ne(ssoDomains.companyId, companyId)));
  const taken = new Set(held.map((d) => d.domain));
  return domains.find((d) => taken.has(d));
}

const sameList = (a: readonly unknown[], b: readonly unknown[]) =>
  JSON.stringify(a) === JSON.stringify(b);

/** The names of the settings that `input` changes (the secret apart). */
function changedFields(before: StoredSso, input: SsoSettings): string[] {
  const row = before.row;
  const changed: string[] = [];
  const check = (field: string, was: unknown, now: unknown) => {
    if (was !== now) changed.push(field);
  };
  check('enabled', row?.enabled ?? false, input.enabled);
  check('issuer_url', row?.issuerUrl ?? '', input.issuer_url);
  check('client_id', row?.clientId ?? '', input.client_id);
  if (!sameList(before.domains, [...input.domains].sort())) changed.push('domains');
  check('groups_claim', row?.groupsClaim ?? 'groups', input.groups_claim);
  // jsonb keeps an object's keys in its own order: compare the pairs, not the objects.
  const pairs = (list: readonly { group: string; role: string }[]) =>
    list.map((r) => [r.group, r.role]);
  if (!sameList(pairs(row?.roleMappings ?? []), pairs(input.role_mappings))) {
    changed.push('role_mappings');
  }
  check('default_role', row?.defaultRole ?? 'ROLE_USER', input.default_role);
  check('allow_jit', row?.allowJit ?? false, input.allow_jit);
  check('enforced', row?.enforced ?? false, input.enforced);
  return changed;
}

export interface SsoActor {
  userId: string | null;
  box: SecretBox;
  now?: Date;
}

/**
 * Saves the company's settings and domains, audited ('sso.updated': the fields changed,
 * `secretChanged`, never the secret), in one transaction. A blank or absent client secret
 * keeps the stored one; enabling without any secret is a 400 on `client_secret`; a domain
 * another company covers is a 409 (also when two saves race for it: the key refuses one).
 */
export async function saveSso(
  db: Db,
  companyId: string,
  input: SsoSettings,
  actor: SsoActor,
): Promise<StoredSso> {
  const newSecret = input.client_secret ? input.client_secret : undefined;
  try {
    return await db.transaction(async (tx) => {
      const before = await readSso(tx, companyId);
      if (input.enabled && !newSecret && !hasClientSecret(before.row, actor.box)) {
        throw badRequest((m) => m.sso.secretRequired, {
          client_secret: (m) => m.sso.secretRequired,
        });
      }
      const taken = await domainHeldElsewhere(tx, companyId, input.domains);
      if (taken) throw conflict((m) => m.sso.domainTaken(taken));

      const now = actor.now ?? new Date();
      const values = {
        enabled: input.enabled,
        issuerUrl: input.issuer_url,
        clientId: input.client_id,
        ...(newSecret ? { clientSecretEncrypted: actor.box.seal(newSecret) } : {}),
        groupsClaim: input.groups_claim,
        roleMappings: input.role_mappings,
        defaultRole: input.default_role,
        allowJit: input.allow_jit,
        enforced: input.enforced,
        updatedAt: now,
        updatedBy: actor.userId,
      };
      await tx
        .insert(companySso)
        .values({ companyId, ...values })
        .onConflictDoUpdate({ target: companySso.companyId, set: values });
      const mappingChanged =
        JSON.stringify(before.row?.roleMappings ?? []) !== JSON.stringify(input.role_mappings) ||
        (before.row?.defaultRole ?? 'ROLE_USER') !== input.default_role;
      // The directory's members follow the new mapping at once (scim/roles.ts).
      if (mappingChanged) await remapDirectoryMembers(tx, companyId, actor.userId);
      await tx.delete(ssoDomains).where(eq(ssoDomains.companyId, companyId));
      if (input.domains.length > 0) {
        await tx.insert(ssoDomains).values(input.domains.map((domain) => ({ domain, companyId })));
      }
      await audit(tx, {
        companyId,
        actorUserId: actor.userId,
        action: 'sso.updated',
        subjectType: 'company',
        subjectId: companyId,
        detail: {
          changed: changedFields(before, input),
          secretChanged: Boolean(newSecret),
          enabled: input.enabled,
          enforced: input.enforced,
          allowJit: input.allow_jit,
          domains: input.domains.length,
          roleMappings: input.role_mappings.length,
        },
      });
      return readSso(tx, companyId);
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // Another company saved the same domain between our check and our insert.
    const taken = (await domainHeldElsewhere(db, companyId, input.domains)) ?? input.domains[0];
    if (taken === undefined) throw error;
    throw conflict((m) => m.sso.domainTaken(taken));
  }
}

/** The most of a discovery document read (a real one is a few kilobytes). */
const DISCOVERY_MAX_BYTES = 512 * 1024;

/** The body of `response` as text, refused (null) beyond `max` bytes. */
async function boundedText(response: Response, max: number): Promise<string | null> {
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > max) return null;
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Where an issuer publishes its configuration (OpenID Connect Discovery 1.0 §4). */
export function discoveryUrl(issuer: string): string {
  return `${issuer}${issuer.endsWith('/') ? '' : '/'}.well-known/openid-configuration`;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * "Tester la connexion": fetches the issuer's discovery document (within
 * `SSO_LIMITS.discoveryTimeoutMs`, no redirect followed) and says in one sentence whether it
 * is an OpenID provider Sésame can sign in with — the issuer it announces is the one typed,
 * and it offers the authorization code flow with PKCE (S256). A provider's fault is an
 * answer (`ok: false`), never an error.
 */
export async function testIssuer(
  issuer: string,
  timeoutMs: number = SSO_LIMITS.discoveryTimeoutMs,
): Promise<{ ok: boolean; say: Say; endSession: boolean }> {
  const fail = (say: Say) => ({ ok: false, say, endSession: false });
  let text: string | null;
  let status: number;
  try {
    const response = await fetch(discoveryUrl(issuer), {
      headers: { accept: 'application/json' },
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    status = response.status;
    text = await boundedText(response, DISCOVERY_MAX_BYTES);
  } catch {
    return fail((m) => m.sso.testUnreachable(issuer));
  }
  if (status < 200 || status >= 300 || text === null) {
    return fail((m) => m.sso.testNotOidc(issuer));
  }
  let metadata: unknown;
  try {
    metadata = JSON.parse(text);
  } catch {
    return fail((m) => m.sso.testNotOidc(issuer));
  }
  if (
    !isObject(metadata) ||
    typeof metadata.issuer !== 'string' ||
    typeof metadata.authorization_endpoint !== 'string'
  ) {
    return fail((m) => m.sso.testNotOidc(issuer));
  }
  const announced = metadata.issuer;
  if (announced !== issuer) {
    // What the provider announces is shown as text: one line, bounded.
    const shown = [...announced]
      .filter((c) => c >= ' ' && c !== '\u007f')
      .join('')
      .slice(0, SSO_LIMITS.urlMax);
    return fail((m) => m.sso.testIssuerMismatch(shown));
  }
  const responseTypes = metadata.response_types_supported;
  const challengeMethods = metadata.code_challenge_methods_supported;
  const codeFlow =
    typeof metadata.token_endpoint === 'string' &&
    Array.isArray(responseTypes) &&
    responseTypes.includes('code') &&
    (!Array.isArray(challengeMethods) || challengeMethods.includes('S256'));
  if (!codeFlow) return fail((m) => m.sso.testNoCodeFlow);
  return {
    ok: true,
    say: (m) => m.sso.testOk(issuer),
    endSession:
      typeof metadata.end_session_endpoint === 'string' && metadata.end_session_endpoint !== '',
  };
}

/** The route's answer, said in the request's language by `say`. */
export const testAnswer = (
  result: { ok: boolean; say: Say; endSession: boolean },
  say: (message: Say) => string,
): SsoTestResult => ({ ok: result.ok, message: say(result.say), end_session: result.endSession });
