/**
 * The navigation rules (issue 17): which company a screen shows, where a slugless
 * address goes, which paths the login may return to, when a token stops counting.
 */
import { describe, expect, it } from 'vitest';
import { COMPANY_PAGE_NAMES, isReservedSlug } from '@sesame/shared';
import { routes } from '../src/app/routes';
import { sluglessPages, sluglessRoutes } from '../src/app/slugless-routes';
import { reachesUrlCompany } from '../src/components/RequireAuth';
import { safeReturnPath } from '../src/lib/return-path';
import { tokenExpiresAt } from '../src/lib/session';
import { shownCompanySlug, urlCompanySlug } from '../src/lib/shown-company';

const ORIGIN = 'https://sesame.example';

describe('safeReturnPath: only a path of this application', () => {
  it.each([
    ['/demo/manual-check', '/demo/manual-check'],
    ['/demo/list-users?page=2#top', '/demo/list-users?page=2#top'],
    ['/manual-check', '/manual-check'],
    ['/scan/7KQ2-M9XD-4TRA', '/scan/7KQ2-M9XD-4TRA'],
  ])('keeps %s', (from, expected) => {
    expect(safeReturnPath(from, ORIGIN)).toBe(expected);
  });

  it.each([
    ['another site', 'https://evil.example/x'],
    ['a protocol-relative address', '//evil.example/x'],
    ['a backslash read as a slash', '/\\evil.example/x'],
    ['a tab that parsers drop', '/\t/evil.example'],
    ['a newline', '/demo\n/x'],
    ['a script address', 'javascript:alert(1)'],
    ['a relative path without its slash', 'demo/menu'],
    ['the sign-in page itself', '/sign-in'],
    ['the root (the login)', '/'],
    ['nothing', ''],
    ['not a string', { pathname: '/demo' }],
    ['a path too long to be ours', `/${'a'.repeat(3000)}`],
  ])('refuses %s', (_what, from) => {
    expect(safeReturnPath(from, ORIGIN)).toBeNull();
  });
});

describe('the company a screen shows', () => {
  const all = { urlSlug: 'acme', recordSlug: 'globex', ownSlug: 'initech', defaultSlug: 'demo' };

  it('takes the URL first, then the record, then the person’s own company, then the default', () => {
    expect(shownCompanySlug(all)).toBe('acme');
    expect(shownCompanySlug({ ...all, urlSlug: undefined })).toBe('globex');
    expect(shownCompanySlug({ ...all, urlSlug: undefined, recordSlug: null })).toBe('initech');
    expect(shownCompanySlug({ defaultSlug: 'demo', ownSlug: null })).toBe('demo');
    expect(shownCompanySlug({})).toBeUndefined();
  });

  it('reads the company of a path from {domain}, or {slug} on /company/{slug} pages only', () => {
    expect(urlCompanySlug({ domain: 'acme', slug: 'gala' }, '/acme/show-event-qrcode/gala')).toBe(
      'acme',
    );
    expect(urlCompanySlug({ slug: 'acme' }, '/company/acme/members')).toBe('acme');
    expect(urlCompanySlug({ uidn: 'X' }, '/success-checkout/X')).toBeUndefined();
  });

  it('opens staff pages of another company only to the roles that act on every company', () => {
    expect(reachesUrlCompany('ROLE_MANAGER', 'demo', 'Demo')).toBe(true);
    expect(reachesUrlCompany('ROLE_MANAGER', 'demo', 'acme')).toBe(false);
    expect(reachesUrlCompany('ROLE_SUPERVISOR', 'demo', 'acme')).toBe(false);
    expect(reachesUrlCompany('ROLE_ADMIN', 'demo', 'acme')).toBe(true);
    expect(reachesUrlCompany('ROLE_SESAME', 'demo', 'acme')).toBe(true);
    expect(reachesUrlCompany('ROLE_EMPLOYEE', 'demo', undefined)).toBe(true);
  });
});

describe('slugless addresses', () => {
  const layoutChildren = routes[0]!.children![0]!.children![0]!.children!;
  const pages = sluglessPages(layoutChildren);
  const byName = new Map(pages.map((page) => [page.name, page]));

  it('exist for every page under {domain}, and no company may take one of their names', () => {
    expect([...byName.keys()].sort()).toEqual([...COMPANY_PAGE_NAMES].sort());
    for (const name of byName.keys()) expect(isReservedSlug(name)).toBe(true);
  });

  it('send public pages to the default company and staff pages to the person’s own', () => {
    expect(byName.get('request-meeting')).toMatchObject({ staff: false });
    expect(byName.get('meeting')).toMatchObject({ staff: false });
    expect(byName.get('show-event-qrcode')).toMatchObject({ staff: false });
    expect(byName.get('manual-check')).toMatchObject({ staff: true, guarded: true });
    expect(byName.get('list-users')).toMatchObject({ staff: true, guarded: true });
    expect(byName.get('menu')).toMatchObject({ staff: true, guarded: false });
    // The slugless routes are built from the pages, not listed twice.
    expect(sluglessRoutes(layoutChildren)).toHaveLength(pages.length);
  });
});

describe('tokenExpiresAt', () => {
  const encode = (payload: object) =>
    `h.${btoa(JSON.stringify(payload)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=/g, '')}.s`;

  it('reads the exp claim in milliseconds, or null when there is none', () => {
    expect(tokenExpiresAt(encode({ sub: 'u', exp: 1_900_000_000 }))).toBe(1_900_000_000_000);
    expect(tokenExpiresAt(encode({ sub: 'u' }))).toBeNull();
    expect(tokenExpiresAt('not-a-token')).toBeNull();
    expect(tokenExpiresAt('a.%%%.c')).toBeNull();
    expect(tokenExpiresAt(null)).toBeNull();
  });
});
