/**
 * Issue 11 §2: only ROLE_ADMIN and ROLE_SESAME ever act beyond their own company.
 * For every action of the shared matrix and every role, a record of another
 * company gets the answer the matrix gives: 403 without the right, success for a
 * role that acts on every company, and for every other role a 404 (a record), an
 * absence (a list) or a record made in its own company (a creation). `PROBES` is
 * keyed by `Action`: a new action does not typecheck until it is probed here.
 */
import { describe, expect, it } from 'vitest';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import {
  ACTIONS,
  CROSS_TENANT_ROLES,
  ROLES,
  actsOnAllCompanies,
  mayChooseCompany,
  mayPerform,
  type Action,
  type Role,
} from '@sesame/shared';
import { UPDATE } from '../src/qr-users/policy';
import { qrPng } from '../src/qr/qr';
import { auditEvents, files, rollCalls, userChecks } from '../src/db/schema';
import { as, multipart, tokenFor, useTestApp, type TestContext } from './helpers/app';
import {
  buildCompany,
  buildEvent,
  buildQrUser,
  buildRequest,
  buildTenant,
  buildUser,
  buildVisitor,
  companyFormFields,
} from './helpers/factories';

type Company = Awaited<ReturnType<typeof buildCompany>>;

interface ProbeContext extends TestContext {
  /** The caller's own company, and the other one whose records are probed. */
  own: Company;
  other: Company;
  sessionId: string;
}

/**
 * One probe: the call, and whether its answer reached the other company's record
 * (a success on it, its rows in a list, a record created in it).
 */
interface Probe {
  request: InjectOptions;
  kind: 'record' | 'list' | 'create';
  /**
   * When the route grants its right through several actions of the matrix (any of
   * them will do), those actions; the probed one alone otherwise.
   */
  anyOf?: Action[];
  reachedOther: (res: LightMyRequestResponse) => Promise<boolean> | boolean;
}

const ok = (res: LightMyRequestResponse) => res.statusCode >= 200 && res.statusCode < 300;
const lists = (ctx: ProbeContext) => (res: LightMyRequestResponse) =>
  ok(res) && res.body.includes(ctx.other.id);
const createdIn = (ctx: ProbeContext) => (res: LightMyRequestResponse) => {
  if (!ok(res)) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
  return res.body.includes(ctx.other.slug) || res.body.includes(ctx.other.id);
};

const png = await qrPng('document');
const cardFiles = () => ({
  user_document: { filename: 'doc.png', contentType: 'image/png', bytes: png },
});
const staffFields = (ctx: ProbeContext, role: Role) => ({
  name: 'Probe',
  firstname: 'Tenant',
  email: `probe-${Math.random().toString(36).slice(2)}@example.com`,
  password: 'Un-mot-de-passe-solide-42',
  title: 'Agent',
  contact: '0102030405',
  role,
  company_id: ctx.other.id,
});

/** A member of the other company, checked in by hand: a row for the lists that show presence. */
async function memberInside(ctx: ProbeContext) {
  const card = await buildQrUser(ctx.db, { company: ctx.other });
  const [check] = await ctx.db
    .insert(userChecks)
    .values({
      companyId: ctx.other.id,
      siteId: ctx.other.siteId,
      qrUserId: card.id,
      checkInMethod: 'manual',
    })
    .returning();
  return { card, check };
}

/** A list of every company's people: the other company's slug shows only if it was reached. */
const presenceList = (ctx: ProbeContext, url: string): Probe => ({
  request: { method: 'GET', url },
  kind: 'list',
  reachedOther: (res) => ok(res) && res.body.includes(ctx.other.slug),
});

const PROBES: Record<Action, (ctx: ProbeContext) => Promise<Probe>> = {
  'requests.list': async (ctx) => ({
    request: { method: 'GET', url: `/api/requests/list/${ctx.other.slug}` },
    kind: 'record',
    reachedOther: ok,
  }),
  'requests.validate': async (ctx) => {
    const visitor = await buildVisitor(ctx.db, { company: ctx.other });
    const request = await buildRequest(ctx.db, { company: ctx.other, visitor });
    return {
      request: {
        method: 'PUT',
        url: `/api/requests/update/${request.id}`,
        payload: { status: 1, confirmed: 1 },
      },
      kind: 'record',
      reachedOther: ok,
    };
  },
  'requests.delete': async (ctx) => {
    const visitor = await buildVisitor(ctx.db, { company: ctx.other });
    return {
      request: { method: 'DELETE', url: `/api/visitor/delete/${visitor.id}` },
      kind: 'record',
      reachedOther: ok,
    };
  },
  'visitors.viewDocument': async (ctx) => {
    const stored = `${Math.random().toString(16).slice(2).padEnd(32, '0').slice(0, 32)}.png`;
    await ctx.app.storage.put(stored, png);
    const [file] = await ctx.db
      .insert(files)
      .values({
        companyId: ctx.other.id,
        ownerType: 'visitor_document',
        storedName: stored,
        originalName: 'id.png',
        mediaType: 'image/png',
        size: png.length,
        sha256: 'x',
      })
      .returning();
    const url = ctx.app.fileUrls.signed(file!.id, { sessionId: ctx.sessionId })!;
    return { request: { method: 'GET', url }, kind: 'record', reachedOther: ok };
  },
  'checks.record': async (ctx) => {
    const card = await buildQrUser(ctx.db, { company: ctx.other });
    return {
      request: { method: 'GET', url: `/api/get-qr-user-data/${card.uidn}` },
      kind: 'record',
      reachedOther: ok,
    };
  },
  'visitorLogs.list': async (ctx) => ({
    request: { method: 'GET', url: `/api/visitorLog/${ctx.other.slug}` },
    kind: 'record',
    reachedOther: ok,
  }),
  'userChecks.list': async (ctx) => {
    await memberInside(ctx);
    return presenceList(ctx, '/api/userLog?per_page=100');
  },
  'qrUsers.updateExpiry': async (ctx) => {
    const card = await buildQrUser(ctx.db, { company: ctx.other });
    return {
      request: { method: 'PUT', url: `/api/qruser/${card.id}`, payload: { dateExp: '2099-01-01' } },
      kind: 'record',
      // The expiry screen and the card's creators may change a permanent card.
      anyOf: [...UPDATE.permanent],
      reachedOther: ok,
    };
  },
  'events.list': async (ctx) => {
    const event = await buildEvent(ctx.db, { company: ctx.other });
    return {
      request: { method: 'GET', url: `/api/evenement/${event.id}` },
      kind: 'record',
      reachedOther: ok,
    };
  },
  'events.create': async (ctx) => ({
    request: {
      method: 'POST',
      url: '/api/evenement/create',
      payload: {
        company_id: ctx.other.id,
        name: `Probe ${Math.random().toString(36).slice(2)}`,
        location: 'Hall',
        address_name: '1 rue du Commerce',
        date_event: '01/01/2099',
        time_event: '10:00',
      },
    },
    kind: 'create',
    reachedOther: createdIn(ctx),
  }),
  'events.delete': async (ctx) => {
    const event = await buildEvent(ctx.db, { company: ctx.other });
    return {
      request: { method: 'DELETE', url: `/api/evenement/delete/${event.id}` },
      kind: 'record',
      reachedOther: ok,
    };
  },
  'eventAttendance.list': async (ctx) => ({
    request: { method: 'GET', url: `/api/eventattendencelist?company=${ctx.other.slug}` },
    kind: 'record',
    reachedOther: ok,
  }),
  'users.list': async (ctx) => {
    await buildUser(ctx.db, { company: ctx.other });
    return {
      request: { method: 'GET', url: '/api/user/list?per_page=100' },
      kind: 'list',
      reachedOther: lists(ctx),
    };
  },
  'users.create': async (ctx) => ({
    request: {
      method: 'POST',
      url: '/api/user/create',
      payload: staffFields(ctx, 'ROLE_EMPLOYEE'),
    },
    kind: 'create',
    reachedOther: createdIn(ctx),
  }),
  'users.update': async (ctx) => {
    const target = await buildUser(ctx.db, { company: ctx.other, role: 'ROLE_USER' });
    return {
      request: {
        method: 'PUT',
        url: `/api/user/${target.id}`,
        payload: { ...staffFields(ctx, 'ROLE_USER'), email: target.email, password: '' },
      },
      kind: 'record',
      reachedOther: ok,
    };
  },
  'users.delete': async (ctx) => {
    const target = await buildUser(ctx.db, { company: ctx.other });
    return {
      request: { method: 'DELETE', url: `/api/user/${target.id}` },
      kind: 'record',
      reachedOther: ok,
    };
  },
  'employees.list': async (ctx) => ({
    request: { method: 'GET', url: `/api/user/list/${ctx.other.slug}` },
    kind: 'record',
    reachedOther: ok,
  }),
  // The list shows managers and super admins every company, but only its public
  // fields: "reaching" it here means reading its private ones.
  'companies.list': async (ctx) => ({
    request: { method: 'GET', url: `/api/companies?per_page=100&q=${ctx.other.slug}` },
    kind: 'list',
    reachedOther: (res) => ok(res) && res.body.includes(ctx.other.email!),
  }),
  // A new company is no other tenant's record: the probe holds creation to the
  // matrix's roles (403 for the others); companies.update's probe covers what follows.
  'companies.create': async () => ({
    request: {
      method: 'POST',
      url: '/api/company',
      ...multipart(
        companyFormFields({
          name: `Probe ${Math.random().toString(36).slice(2)}`,
          email: 'contact@probe.example',
        }),
        { logo: { filename: 'logo.png', contentType: 'image/png', bytes: png } },
      ),
    },
    kind: 'create',
    reachedOther: (res) => {
      if (!ok(res)) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
      return false;
    },
  }),
  'companies.update': async (ctx) => {
    const target = await buildCompany(ctx.db);
    return {
      request: {
        method: 'PUT',
        url: `/api/company/${target.id}`,
        ...multipart({ name: 'Renamed by another tenant', description: 'Pris' }),
      },
      kind: 'record',
      reachedOther: ok,
    };
  },
  'companies.delete': async (ctx) => {
    const empty = await buildCompany(ctx.db);
    return {
      request: { method: 'DELETE', url: `/api/company/delete/${empty.id}` },
      kind: 'record',
      reachedOther: ok,
    };
  },
  'qrUsers.list': async (ctx) => {
    await buildQrUser(ctx.db, { company: ctx.other });
    return {
      request: { method: 'GET', url: '/api/qruser-list?per_page=100' },
      kind: 'list',
      reachedOther: (res) => ok(res) && res.body.includes(ctx.other.slug),
    };
  },
  'qrUsers.create': async (ctx) => ({
    request: {
      method: 'POST',
      url: '/api/create-qr',
      ...multipart({ company_id: ctx.other.id, email: 'probe@example.com' }, cardFiles()),
    },
    kind: 'create',
    reachedOther: createdIn(ctx),
  }),
  'members.create': async (ctx) => ({
    request: {
      method: 'POST',
      url: '/api/create-member',
      ...multipart(
        {
          firstname: 'Awa',
          lastname: 'Probe',
          email: 'member@example.com',
          contact: '0102030405',
          title: 'Membre',
          company_id: ctx.other.id,
        },
        cardFiles(),
      ),
    },
    kind: 'create',
    reachedOther: createdIn(ctx),
  }),
  'members.list': async (ctx) => ({
    request: { method: 'GET', url: `/api/company/${ctx.other.slug}/members` },
    kind: 'record',
    reachedOther: ok,
  }),
  'onSite.list': async (ctx) => {
    await memberInside(ctx);
    return presenceList(ctx, '/api/on-site?per_page=100');
  },
  'onSite.checkOut': async (ctx) => {
    const { check } = await memberInside(ctx);
    return {
      request: { method: 'POST', url: `/api/on-site/${check!.id}/check-out` },
      kind: 'record',
      reachedOther: ok,
    };
  },
  // A roll call of the other company (ended, so each role's probe may add one).
  'rollCall.run': async (ctx) => {
    const [rollCall] = await ctx.db
      .insert(rollCalls)
      .values({ companyId: ctx.other.id, endedAt: new Date() })
      .returning();
    return {
      request: { method: 'GET', url: `/api/roll-calls/${rollCall!.id}` },
      kind: 'record',
      reachedOther: ok,
    };
  },
  // The stream itself never ends under inject: a request that does not accept it is
  // answered 406 once the company is found within reach (404 before, for the others).
  'live.listen': async (ctx) => ({
    request: {
      method: 'GET',
      url: `/api/live?company=${ctx.other.slug}`,
      headers: { accept: 'application/json' },
    },
    kind: 'record',
    reachedOther: (res) => res.statusCode === 406,
  }),
  'audit.list': async (ctx) => {
    await ctx.db.insert(auditEvents).values({
      id: crypto.randomUUID(),
      companyId: ctx.other.id,
      actorUserId: null,
      action: 'company.updated',
    });
    return {
      request: { method: 'GET', url: '/api/audit?per_page=100' },
      kind: 'list',
      reachedOther: lists(ctx),
    };
  },
  // A site of the other company (issue 28): read it, rename it.
  'sites.list': async (ctx) => ({
    request: { method: 'GET', url: `/api/company/${ctx.other.id}/sites/${ctx.other.siteId}` },
    kind: 'record',
    reachedOther: ok,
  }),
  'sites.manage': async (ctx) => ({
    request: {
      method: 'PUT',
      url: `/api/company/${ctx.other.id}/sites/${ctx.other.siteId}`,
      payload: { name: `Probe ${Math.random().toString(36).slice(2)}` },
    },
    kind: 'record',
    reachedOther: ok,
  }),
  // Issue 29: another company's kiosk, renamed.
  'kiosks.manage': async (ctx) => {
    const { kiosks } = await import('../src/db/schema');
    const [kiosk] = await ctx.db
      .insert(kiosks)
      .values({ companyId: ctx.other.id, siteId: ctx.other.siteId, name: 'Accueil' })
      .returning();
    return {
      request: {
        method: 'PUT',
        url: `/api/company/${ctx.other.id}/kiosks/${kiosk!.id}`,
        payload: { name: `Probe ${Math.random().toString(36).slice(2)}` },
      },
      kind: 'record',
      reachedOther: ok,
    };
  },
  // Issue 29: a visitor's badge (its prints: the same record check as the page and a print).
  'badges.print': async (ctx) => {
    const visitor = await buildVisitor(ctx.db, { company: ctx.other });
    const request = await buildRequest(ctx.db, {
      company: ctx.other,
      visitor,
      status: 1,
      confirmed: true,
    });
    return {
      request: { method: 'GET', url: `/api/badges/${request.id}/prints` },
      kind: 'record',
      reachedOther: ok,
    };
  },
  // Issue 30: another company's invitation is no caller's to change (every role is confined).
  'invitations.create': async (ctx) => {
    const { invitations } = await import('../src/db/schema');
    const [invitation] = await ctx.db
      .insert(invitations)
      .values({
        companyId: ctx.other.id,
        siteId: ctx.other.siteId,
        firstDate: '04/03/2030',
        time: '09:00',
        endTime: '10:00',
      })
      .returning();
    return {
      request: {
        method: 'POST',
        url: `/api/invitations/${invitation!.id}/cancel`,
        payload: {},
      },
      kind: 'record',
      reachedOther: ok,
    };
  },
  // Issue 31: another company's visitor types, read; one of them, edited.
  'visitorTypes.list': async (ctx) => ({
    request: {
      method: 'GET',
      url: `/api/company/${ctx.other.id}/visitor-types?site=${ctx.other.siteId}`,
    },
    kind: 'record',
    reachedOther: ok,
  }),
  'visitorTypes.manage': async (ctx) => {
    const { visitorTypes } = await import('../src/db/schema');
    const name = `Probe ${Math.random().toString(36).slice(2)}`;
    const [type] = await ctx.db
      .insert(visitorTypes)
      .values({
        companyId: ctx.other.id,
        siteId: ctx.other.siteId,
        nameFr: name,
        nameEn: name,
        color: '#1971C2',
      })
      .returning();
    return {
      request: {
        method: 'PUT',
        url: `/api/company/${ctx.other.id}/visitor-types/${type!.id}`,
        payload: {
          site_id: ctx.other.siteId,
          name_fr: `${name} bis`,
          name_en: `${name} bis`,
          color: '#2F9E44',
        },
      },
      kind: 'record',
      reachedOther: ok,
    };
  },
  // Issue 31: another company's signed document, downloaded; its watchlist, edited; its
  // held visits, listed.
  'signatures.read': async (ctx) => {
    const { signatures } = await import('../src/db/schema');
    const [signature] = await ctx.db
      .insert(signatures)
      .values({
        companyId: ctx.other.id,
        siteId: ctx.other.siteId,
        version: 1,
        language: 'fr',
        title: 'Règlement de sécurité',
        body: 'Je respecte les consignes.',
        signerName: 'Awa Koné',
        method: 'typed',
        signedAt: new Date(),
        hash: '0'.repeat(64),
      })
      .returning();
    return {
      request: { method: 'GET', url: `/api/signatures/${signature!.id}/pdf` },
      kind: 'record',
      reachedOther: ok,
    };
  },
  'watchlist.manage': async (ctx) => {
    const { watchlistEntries } = await import('../src/db/schema');
    const [entry] = await ctx.db
      .insert(watchlistEntries)
      .values({ companyId: ctx.other.id, email: 'probe@example.com', reason: 'Probe' })
      .returning();
    return {
      request: {
        method: 'PUT',
        url: `/api/company/${ctx.other.id}/watchlist/${entry!.id}`,
        payload: { email: 'probe2@example.com', reason: 'Probe', until: '' },
      },
      kind: 'record',
      reachedOther: ok,
    };
  },
  'watchlist.review': async (ctx) => ({
    request: { method: 'GET', url: `/api/company/${ctx.other.id}/watchlist/holds` },
    kind: 'record',
    reachedOther: ok,
  }),
  // Issue 33: another company's single sign-on settings.
  'sso.manage': async (ctx) => ({
    request: { method: 'GET', url: `/api/company/${ctx.other.id}/sso` },
    kind: 'record',
    reachedOther: ok,
  }),
  // Issue 34: another company's API keys.
  // The other company's dashboard, named by ?company= (issue 35): 404 but for the platform's admin.
  'dashboard.view': async (ctx) => ({
    request: {
      method: 'GET',
      url: `/api/dashboard?company=${ctx.other.id}&from=2030-01-01&to=2030-01-07`,
    },
    kind: 'record',
    reachedOther: ok,
  }),
  'integrations.manage': async (ctx) => ({
    request: { method: 'GET', url: `/api/company/${ctx.other.id}/api-keys` },
    kind: 'record',
    reachedOther: ok,
  }),
  'privacy.settings': async (ctx) => ({
    request: { method: 'GET', url: `/api/company/${ctx.other.id}/privacy` },
    kind: 'record',
    reachedOther: ok,
  }),
  'privacy.rights': async (ctx) => {
    const visitor = await buildVisitor(ctx.db, { company: ctx.other });
    return {
      request: { method: 'GET', url: `/api/privacy/visitor/${visitor.id}/erasure` },
      kind: 'record',
      reachedOther: ok,
    };
  },
};

/** What the matrix says a role gets on another company's record for `action`. */
function expected(role: Role, action: Action, probe: Probe): 'forbidden' | 'reached' | 'confined' {
  const granted = (probe.anyOf ?? [action]).filter((a) => mayPerform(role, a));
  if (granted.length === 0) return 'forbidden';
  if (probe.kind === 'create') return mayChooseCompany(role, action) ? 'reached' : 'confined';
  return granted.some((a) => actsOnAllCompanies(role, a)) ? 'reached' : 'confined';
}

describe('tenant isolation across the whole matrix (issue 11 §2)', () => {
  const ctx = useTestApp();

  it('only ROLE_ADMIN and ROLE_SESAME act on every company, in the matrix itself', () => {
    for (const [action, rule] of Object.entries(ACTIONS)) {
      for (const role of [
        ...rule.allCompanies,
        ...(('chooseCompany' in rule && rule.chooseCompany) || []),
      ])
        expect((CROSS_TENANT_ROLES as readonly string[]).includes(role), `${action}: ${role}`).toBe(
          true,
        );
    }
  });

  it('every action, every role, another company’s record', async () => {
    const tenant = await buildTenant(ctx.db);
    const other = await buildCompany(ctx.db, { email: `private-${Date.now()}@other.example` });
    await buildUser(ctx.db, { company: other, role: 'ROLE_ADMIN' });
    const answers: string[] = [];
    for (const role of ROLES) {
      const user = tenant.staff[role];
      const token = await tokenFor(ctx.app, user.email);
      const sessionId = (
        JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as {
          sid: string;
        }
      ).sid;
      const call = as(ctx.app, token);
      for (const action of Object.keys(PROBES) as Action[]) {
        const probe = await PROBES[action]({ ...ctx, own: tenant.company, other, sessionId });
        const res = await call(probe.request);
        const want = expected(role, action, probe);
        const got =
          res.statusCode === 403
            ? 'forbidden'
            : (await probe.reachedOther(res))
              ? 'reached'
              : 'confined';
        if (got !== want)
          answers.push(
            `${role} ${action}: ${want} expected, got ${got} (${res.statusCode} ${res.body.slice(0, 120)})`,
          );
        if (want === 'confined' && probe.kind === 'record')
          expect(res.statusCode, `${role} ${action}`).toBe(404);
      }
    }
    expect(answers).toEqual([]);
  });

  it('the reported attack: A’s manager makes a super admin, who cannot touch or read B', async () => {
    const a = await buildTenant(ctx.db);
    const b = await buildCompany(ctx.db, {
      email: 'direction@b.example',
      phoneNumber: '0700000000',
    });
    const manager = as(ctx.app, await tokenFor(ctx.app, a.staff.ROLE_MANAGER.email));
    const created = await manager({
      method: 'POST',
      url: '/api/user/create',
      payload: {
        ...staffFields({ other: b } as ProbeContext, 'ROLE_SUPER_ADMIN'),
        company_id: a.company.id,
      },
    });
    expect(created.statusCode).toBe(201);
    const superAdmin = as(
      ctx.app,
      await tokenFor(ctx.app, created.json().data.email, 'Un-mot-de-passe-solide-42'),
    );
    const rename = await superAdmin({
      method: 'PUT',
      url: `/api/company/${b.id}`,
      ...multipart({ name: 'Pwned', description: 'Pwned' }),
    });
    expect(rename.statusCode).toBe(404);
    for (const caller of [manager, superAdmin]) {
      const one = await caller({ method: 'GET', url: `/api/company/${b.slug}` });
      expect(one.json().data).not.toHaveProperty('email');
      const list = await caller({ method: 'GET', url: `/api/companies?q=${b.slug}` });
      const row = list.json().data.find((c: { id: string }) => c.id === b.id);
      expect(row).toMatchObject({ id: b.id, name: b.name, slug: b.slug });
      expect(row).not.toHaveProperty('email');
      expect(row).not.toHaveProperty('phone_number');
      expect(JSON.stringify(list.json())).not.toContain('direction@b.example');
    }
    const own = await manager({ method: 'GET', url: `/api/company/${a.company.slug}` });
    expect(own.json().data).toHaveProperty('email');
  });
});
