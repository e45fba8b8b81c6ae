import { describe, expect, it } from 'vitest';
import {
  ACTIONS,
  ASSIGNABLE_BY,
  MENU_TILES,
  ROLES,
  STAFF_PAGE_ACTIONS,
  activeRole,
  actsOnAllCompanies,
  canAssignRole,
  mayPerform,
  menuTilesFor,
  opensStaffPage,
  showsHomeButton,
  type Role,
} from '../src';

const abbreviations: Record<string, Role> = {
  adm: 'ROLE_ADMIN',
  sup: 'ROLE_SUPERVISOR',
  mgr: 'ROLE_MANAGER',
  emp: 'ROLE_EMPLOYEE',
  sc: 'ROLE_SESAME',
  sa: 'ROLE_SUPER_ADMIN',
};
const roles = (list: string) => list.split(', ').map((a) => abbreviations[a]!);

// Spec §6 "Menu tiles by role", copied row by row.
const SPEC_MENU_TILES: [string, string][] = [
  ['eventAttendance', 'adm, mgr, sc'],
  ['userAttendance', 'adm, sup, sa, mgr'],
  ['requests', 'emp, adm, sup, sa, sc'],
  ['events', 'adm, sup, mgr, sa, sc'],
  ['companies', 'adm, mgr, sa, sc'],
  ['createQrCode', 'adm, sup, mgr, sc'],
  ['users', 'adm, sup, sa, sc'],
  ['createUser', 'adm, mgr, sup, sc'],
  ['manualCheck', 'adm, emp, sc'],
  ['createEvent', 'adm, sup, sc'],
  ['camera', 'adm, mgr, emp'],
  ['createCompany', 'adm, mgr, sc'],
  ['visitorLogs', 'adm, sup, sa, mgr, sc'],
  ['qrCodeList', 'adm, sup, sc'],
  ['createMemberCard', 'adm, mgr, sc'],
  // Beyond the spec: issue 14's on-site list, for the front desk and up.
  ['onSite', 'emp, sup, mgr, adm, sc'],
  // Issue 16: the audit log.
  ['audit', 'adm, mgr'],
];

/** Issue 27: the spec's table is the minimum; these roles come on top of it. */
const BEYOND_SPEC: Record<string, string> = {
  // The company's super admin has every tile of the manager's.
  eventAttendance: 'sa',
  createQrCode: 'sa',
  createUser: 'sa',
  camera: 'sa',
  createCompany: 'sa',
  createMemberCard: 'sa',
  onSite: 'sa',
  audit: 'sa',
};
const tileRoles = (id: string, list: string) =>
  [...roles(list), ...(BEYOND_SPEC[id] ? roles(BEYOND_SPEC[id]) : [])].sort();

// Spec §6 "Creating users: roles assignable by creator".
const SPEC_ASSIGNABLE: [Role, string][] = [
  ['ROLE_EMPLOYEE', 'adm, sup, mgr, sc'],
  ['ROLE_SUPERVISOR', 'adm, mgr, sc'],
  ['ROLE_SESAME', 'adm'],
  ['ROLE_MANAGER', 'adm'],
  ['ROLE_ADMIN', 'adm'],
  ['ROLE_SUPER_ADMIN', 'adm, mgr'],
];

describe('permission matrix = spec §6', () => {
  it('has the spec’s fifteen tiles in its order, then issue 14’s, 16’s, 27’s, 28’s, 29’s, 30’s, 31’s, 33’s, 34’s and 35’s', () => {
    expect(MENU_TILES.map((t) => t.id)).toEqual([
      ...SPEC_MENU_TILES.map(([id]) => id),
      'account',
      'mailSettings',
      'sites',
      'kiosks',
      'invite',
      'myVisitors',
      'visitorTypes',
      'watchlist',
      'watchlistReviews',
      'sso',
      'apiKeys',
      'webhooks',
      'chat',
      'dashboard',
    ]);
  });

  it('lets the same people keep API keys, webhooks and chat connections, the admin in any company (issue 34)', () => {
    for (const role of ROLES) {
      const may = role === 'ROLE_ADMIN' || role === 'ROLE_SUPER_ADMIN';
      expect(mayPerform(role, 'integrations.manage'), role).toBe(may);
      for (const page of ['api-keys', 'webhooks', 'chat']) {
        expect(opensStaffPage(role, page), `${role} ${page}`).toBe(may);
      }
      expect(actsOnAllCompanies(role, 'integrations.manage'), role).toBe(role === 'ROLE_ADMIN');
    }
  });

  it('opens the dashboard to the platform’s admin (any company), the super admin, managers and supervisors (issue 35)', () => {
    const may = ['ROLE_ADMIN', 'ROLE_SUPER_ADMIN', 'ROLE_MANAGER', 'ROLE_SUPERVISOR'];
    for (const role of ROLES) {
      expect(mayPerform(role, 'dashboard.view'), role).toBe(may.includes(role));
      expect(opensStaffPage(role, 'dashboard'), role).toBe(may.includes(role));
      expect(
        menuTilesFor(role).some((t) => t.id === 'dashboard'),
        role,
      ).toBe(may.includes(role));
      expect(actsOnAllCompanies(role, 'dashboard.view'), role).toBe(role === 'ROLE_ADMIN');
    }
  });

  it('lets the company’s top role and the platform’s admin set up single sign-on, the admin in any company (issue 33)', () => {
    for (const role of ROLES) {
      const may = role === 'ROLE_ADMIN' || role === 'ROLE_SUPER_ADMIN';
      expect(mayPerform(role, 'sso.manage'), role).toBe(may);
      expect(opensStaffPage(role, 'sso'), role).toBe(may);
      expect(actsOnAllCompanies(role, 'sso.manage'), role).toBe(role === 'ROLE_ADMIN');
    }
  });

  it('lets every staff member invite their visitors in their own company only (issue 30)', () => {
    for (const role of ROLES) {
      expect(mayPerform(role, 'invitations.create'), role).toBe(true);
      expect(actsOnAllCompanies(role, 'invitations.create'), role).toBe(false);
      expect(opensStaffPage(role, 'invite'), role).toBe(true);
      expect(opensStaffPage(role, 'my-visitors'), role).toBe(true);
      expect(
        menuTilesFor(role).filter((t) => t.id === 'invite' || t.id === 'myVisitors'),
        role,
      ).toHaveLength(2);
      // A host hears their own invitations' news on the live stream.
      expect(mayPerform(role, 'live.listen'), role).toBe(true);
    }
    expect(opensStaffPage(null, 'invite')).toBe(false);
  });

  it('lets those who manage sites manage their kiosks, and whoever reads the request or on-site list print badges (issue 29)', () => {
    const managers: Role[] = ['ROLE_ADMIN', 'ROLE_SUPER_ADMIN', 'ROLE_MANAGER', 'ROLE_SESAME'];
    const desk: Role[] = [
      'ROLE_EMPLOYEE',
      'ROLE_ADMIN',
      'ROLE_SUPERVISOR',
      'ROLE_SUPER_ADMIN',
      'ROLE_SESAME',
      'ROLE_MANAGER',
    ];
    for (const role of ROLES) {
      expect(
        menuTilesFor(role).some((t) => t.id === 'kiosks'),
        role,
      ).toBe(managers.includes(role));
      expect(mayPerform(role, 'kiosks.manage'), role).toBe(managers.includes(role));
      expect(opensStaffPage(role, 'kiosks'), role).toBe(managers.includes(role));
      expect(mayPerform(role, 'badges.print'), role).toBe(desk.includes(role));
    }
    // A plain user (a host) prints no badge: the front desk does.
    expect(mayPerform('ROLE_USER', 'badges.print')).toBe(false);
    expect(actsOnAllCompanies('ROLE_SESAME', 'kiosks.manage')).toBe(true);
    expect(actsOnAllCompanies('ROLE_SUPER_ADMIN', 'kiosks.manage')).toBe(false);
    expect(actsOnAllCompanies('ROLE_MANAGER', 'badges.print')).toBe(false);
  });

  it('lets the company’s admin side manage its sites, and every staff member read them (issue 28)', () => {
    const managers: Role[] = ['ROLE_ADMIN', 'ROLE_SUPER_ADMIN', 'ROLE_MANAGER', 'ROLE_SESAME'];
    for (const role of ROLES) {
      expect(
        menuTilesFor(role).some((t) => t.id === 'sites'),
        role,
      ).toBe(managers.includes(role));
      expect(mayPerform(role, 'sites.manage'), role).toBe(managers.includes(role));
      expect(mayPerform(role, 'sites.list'), role).toBe(true);
      expect(opensStaffPage(role, 'sites'), role).toBe(managers.includes(role));
    }
    // ROLE_SESAME as for companies: every company's sites, as it edits every company.
    expect(actsOnAllCompanies('ROLE_SESAME', 'sites.manage')).toBe(true);
    expect(actsOnAllCompanies('ROLE_MANAGER', 'sites.manage')).toBe(false);
    expect(actsOnAllCompanies('ROLE_SUPER_ADMIN', 'sites.manage')).toBe(false);
  });

  it.each(SPEC_MENU_TILES)(
    'tile %s is shown to %s (and the super admin where the manager)',
    (id, list) => {
      const tile = MENU_TILES.find((t) => t.id === id)!;
      expect([...tile.roles].sort()).toEqual(tileRoles(id, list));
      for (const role of ROLES) {
        expect(menuTilesFor(role).some((t) => t.id === id)).toBe(
          tileRoles(id, list).includes(role),
        );
      }
    },
  );

  it('gives the super admin every tile of the manager and more (issue 27)', () => {
    const ids = (role: Role) => menuTilesFor(role).map((t) => t.id);
    expect(ids('ROLE_SUPER_ADMIN')).toEqual(expect.arrayContaining(ids('ROLE_MANAGER')));
    expect(ids('ROLE_SUPER_ADMIN').length).toBeGreaterThan(ids('ROLE_MANAGER').length);
  });

  it('gives ROLE_USER the tiles of their own account (issue 27) and of their invitations (issue 30)', () => {
    expect(menuTilesFor('ROLE_USER').map((t) => t.path)).toEqual([
      'mon-compte',
      'my-mail-settings',
      'invite',
      'my-visitors',
    ]);
  });

  it.each(SPEC_ASSIGNABLE)(
    '%s is assignable by %s (and the super admin where the manager)',
    (target, list) => {
      const allowed = roles(list).includes('ROLE_MANAGER') ? `${list}, sa` : list;
      expect([...ASSIGNABLE_BY[target]].sort()).toEqual(roles(allowed).sort());
      for (const creator of ROLES) {
        expect(canAssignRole(creator, target)).toBe(roles(allowed).includes(creator));
      }
    },
  );
});

describe('the staff pages a role opens (issue 27)', () => {
  const pageOf = (path: string) => path.split('/')[0]!;

  it('opens every page a tile leads to, for every role that has the tile', () => {
    const closed = MENU_TILES.flatMap((tile) =>
      tile.roles
        .filter((role) => !opensStaffPage(role, pageOf(tile.path)))
        .map((role) => `${role} → ${tile.path}`),
    );
    expect(closed).toEqual([]);
  });

  it('opens a page exactly to the roles the server serves there, whatever the tiles say', () => {
    for (const [page, actions] of Object.entries(STAFF_PAGE_ACTIONS)) {
      for (const role of ROLES) {
        const served = actions.some((a) => (ACTIONS[a].roles as readonly Role[]).includes(role));
        expect(opensStaffPage(role, page), `${role} on ${page}`).toBe(served);
      }
    }
  });

  it("opens 'Liste des Compagnies' and 'Modifier entreprise' to a supervisor, who has no tile there", () => {
    expect(menuTilesFor('ROLE_SUPERVISOR').some((t) => t.path === 'company-list')).toBe(false);
    expect(opensStaffPage('ROLE_SUPERVISOR', 'company-list')).toBe(true);
    expect(opensStaffPage('ROLE_SUPERVISOR', 'edit-company')).toBe(true);
  });

  it('closes a listed page to a signed-out person and leaves unlisted pages to their calls', () => {
    expect(opensStaffPage(null, 'audit')).toBe(false);
    expect(opensStaffPage('ROLE_USER', 'audit')).toBe(false);
    expect(opensStaffPage('ROLE_USER', 'mon-compte')).toBe(true);
    expect(opensStaffPage('ROLE_USER', 'menu')).toBe(true);
  });
});

describe('the home buttons and the active role', () => {
  it('shows the request-meeting button to anonymous, employee, admin and manager only', () => {
    expect(showsHomeButton('requestMeeting', null)).toBe(true);
    const shown = ROLES.filter((r) => showsHomeButton('requestMeeting', r));
    expect(shown.sort()).toEqual(['ROLE_ADMIN', 'ROLE_EMPLOYEE', 'ROLE_MANAGER'].sort());
  });

  it('shows the Menu button to every staff role and not to anonymous visitors', () => {
    expect(showsHomeButton('menu', null)).toBe(false);
    for (const role of ROLES) expect(showsHomeButton('menu', role)).toBe(true);
  });

  it('takes the first role of the list as the active role', () => {
    expect(activeRole(['ROLE_SUPERVISOR', 'ROLE_ADMIN'])).toBe('ROLE_SUPERVISOR');
    expect(activeRole(['UNKNOWN', 'ROLE_MANAGER'])).toBe('ROLE_MANAGER');
    expect(activeRole([])).toBe('ROLE_USER');
  });
});
