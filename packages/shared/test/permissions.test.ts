import { describe, expect, it } from 'vitest';
import {
  ASSIGNABLE_BY,
  MENU_TILES,
  ROLES,
  activeRole,
  canAssignRole,
  menuTilesFor,
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
  it('has the spec’s fifteen tiles in its order, then issue 14’s and issue 16’s', () => {
    expect(MENU_TILES.map((t) => t.id)).toEqual(SPEC_MENU_TILES.map(([id]) => id));
  });

  it.each(SPEC_MENU_TILES)('tile %s is shown to %s and nobody else', (id, list) => {
    const tile = MENU_TILES.find((t) => t.id === id)!;
    expect([...tile.roles].sort()).toEqual(roles(list).sort());
    for (const role of ROLES) {
      expect(menuTilesFor(role).some((t) => t.id === id)).toBe(roles(list).includes(role));
    }
  });

  it('gives ROLE_USER no tile', () => {
    expect(menuTilesFor('ROLE_USER')).toEqual([]);
  });

  it.each(SPEC_ASSIGNABLE)('%s is assignable by %s only', (target, list) => {
    expect([...ASSIGNABLE_BY[target]].sort()).toEqual(roles(list).sort());
    for (const creator of ROLES) {
      expect(canAssignRole(creator, target)).toBe(roles(list).includes(creator));
    }
  });

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
