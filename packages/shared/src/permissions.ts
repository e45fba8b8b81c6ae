/**
 * The permission matrix of spec §6, as data. The web app reads it to show or
 * hide; the server reads the same objects to allow or refuse. Unit tests hold
 * it equal to the spec, row by row.
 */
import type { Role } from './roles';

const adm = 'ROLE_ADMIN';
const sup = 'ROLE_SUPERVISOR';
const mgr = 'ROLE_MANAGER';
const emp = 'ROLE_EMPLOYEE';
const sc = 'ROLE_SESAME';
const sa = 'ROLE_SUPER_ADMIN';

export const MENU_TILE_IDS = [
  'eventAttendance',
  'userAttendance',
  'requests',
  'events',
  'companies',
  'createQrCode',
  'users',
  'createUser',
  'manualCheck',
  'createEvent',
  'camera',
  'createCompany',
  'visitorLogs',
  'qrCodeList',
  'createMemberCard',
  'onSite',
  'audit',
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
] as const;
export type MenuTileId = (typeof MENU_TILE_IDS)[number];

export interface MenuTile {
  id: MenuTileId;
  /** Path below /{domain}/ (the spec's route table). */
  path: string;
  roles: readonly Role[];
}

/**
 * Spec §6 "Menu tiles by role", in the spec's order. Labels live in the locale files
 * (menu.tiles.{id}). The spec's table is the minimum (issue 27): the company's super admin,
 * its top role, also has every tile of the manager's (`sa` added below), and a plain user
 * (a host) has the tiles of their own account.
 */
export const MENU_TILES: readonly MenuTile[] = [
  { id: 'eventAttendance', path: 'event-attendences', roles: [adm, mgr, sc, sa] },
  { id: 'userAttendance', path: 'user-check-ins', roles: [adm, sup, sa, mgr] },
  { id: 'requests', path: 'list-qrcode', roles: [emp, adm, sup, sa, sc] },
  { id: 'events', path: 'list-events', roles: [adm, sup, mgr, sa, sc] },
  { id: 'companies', path: 'company-list', roles: [adm, mgr, sa, sc] },
  { id: 'createQrCode', path: 'create-qr', roles: [adm, sup, mgr, sc, sa] },
  { id: 'users', path: 'list-users', roles: [adm, sup, sa, sc] },
  { id: 'createUser', path: 'create-user', roles: [adm, mgr, sup, sc, sa] },
  { id: 'manualCheck', path: 'manual-check', roles: [adm, emp, sc] },
  { id: 'createEvent', path: 'create-event', roles: [adm, sup, sc] },
  { id: 'camera', path: 'camera', roles: [adm, mgr, emp, sa] },
  { id: 'createCompany', path: 'create-company', roles: [adm, mgr, sc, sa] },
  { id: 'visitorLogs', path: 'display-logs', roles: [adm, sup, sa, mgr, sc] },
  { id: 'qrCodeList', path: 'qr-code-list', roles: [adm, sup, sc] },
  { id: 'createMemberCard', path: 'create-membre-qr', roles: [adm, mgr, sc, sa] },
  // Issue 14: who is inside now, and who is still expected today (front desk and up).
  { id: 'onSite', path: 'on-site', roles: [emp, sup, mgr, adm, sc, sa] },
  // Issue 16: who looked at what and who changed what (the company's admin-side staff).
  { id: 'audit', path: 'audit', roles: [adm, mgr, sa] },
  // Issue 27: a plain user (a host) saw an empty menu; every other role reaches these two
  // pages from the account menu.
  { id: 'account', path: 'mon-compte', roles: ['ROLE_USER'] },
  { id: 'mailSettings', path: 'my-mail-settings', roles: ['ROLE_USER'] },
  // Issue 28: the company's buildings, for whoever runs the company's settings.
  { id: 'sites', path: 'sites', roles: [adm, sa, mgr, sc] },
  // Issue 29: the lobby's self-service tablets, paired and revoked by the same people.
  { id: 'kiosks', path: 'kiosks', roles: [adm, sa, mgr, sc] },
  // Issue 30: every staff member invites their own visitors and follows them.
  { id: 'invite', path: 'invite', roles: [emp, adm, sup, mgr, sc, sa, 'ROLE_USER'] },
  { id: 'myVisitors', path: 'my-visitors', roles: [emp, adm, sup, mgr, sc, sa, 'ROLE_USER'] },
  // Issue 31: each site's visitor types and the documents they sign, set up by whoever runs
  // the sites; the watchlist, kept by the company's admin side; its held visits, reviewed by
  // the same people and the security officers (supervisors).
  { id: 'visitorTypes', path: 'visitor-types', roles: [adm, sa, mgr, sc] },
  { id: 'watchlist', path: 'watchlist', roles: [adm, sa, mgr] },
  { id: 'watchlistReviews', path: 'watchlist-reviews', roles: [adm, sa, mgr, sup] },
  // Issue 33: the company's sign-in with its identity provider and its SCIM tokens: the
  // company's top role and the platform's admin (who repairs a broken configuration).
  { id: 'sso', path: 'sso', roles: [adm, sa] },
  // Issue 34: the company's API keys, webhooks and chat, for its IT department (the same
  // people as its sign-in).
  { id: 'apiKeys', path: 'api-keys', roles: [adm, sa] },
  { id: 'webhooks', path: 'webhooks', roles: [adm, sa] },
  { id: 'chat', path: 'chat', roles: [adm, sa] },
  // Issue 35: the building's figures and charts, for whoever runs the front desk and the
  // facility: the platform's admin, the company's super admin, its managers and supervisors.
  { id: 'dashboard', path: 'dashboard', roles: [adm, sa, mgr, sup] },
];

export function menuTilesFor(role: Role): MenuTile[] {
  return MENU_TILES.filter((tile) => tile.roles.includes(role));
}

function tileRoles(id: MenuTileId): readonly Role[] {
  const tile = MENU_TILES.find((t) => t.id === id);
  if (!tile) throw new Error(`Unknown menu tile ${id}`);
  return tile.roles;
}

/** Spec §6 "Home buttons". `null` stands for an anonymous visitor. */
export const HOME_BUTTONS = {
  requestMeeting: { anonymous: true, roles: [emp, adm, mgr] as readonly Role[] },
  menu: { anonymous: false, roles: [emp, sup, sc, mgr, adm, sa, 'ROLE_USER'] as readonly Role[] },
} as const;

export function showsHomeButton(button: keyof typeof HOME_BUTTONS, role: Role | null): boolean {
  const rule = HOME_BUTTONS[button];
  return role === null ? rule.anonymous : rule.roles.includes(role);
}

/** Spec §6 "Creating users: roles assignable by creator". Key: role to assign. */
export const ASSIGNABLE_BY: Readonly<Record<Role, readonly Role[]>> = {
  // The super admin assigns what the manager assigns (issue 27: beyond the spec's table).
  ROLE_EMPLOYEE: [adm, sup, mgr, sc, sa],
  ROLE_SUPERVISOR: [adm, mgr, sc, sa],
  ROLE_SESAME: [adm],
  ROLE_MANAGER: [adm],
  ROLE_ADMIN: [adm],
  ROLE_SUPER_ADMIN: [adm, mgr, sa],
  // A plain user (a host) may be created by anyone who may create users.
  ROLE_USER: [adm, sup, mgr, sc, sa],
};

export function canAssignRole(creator: Role, target: Role): boolean {
  return ASSIGNABLE_BY[target].includes(creator);
}

export function assignableRoles(creator: Role): Role[] {
  return (Object.keys(ASSIGNABLE_BY) as Role[]).filter((target) => canAssignRole(creator, target));
}

/**
 * The only roles that ever act beyond their own company (ARCHITECTURE §6): the
 * platform admin and the product's own role. Every other role, super admin and
 * manager included, is confined to its company for reads and writes.
 */
export const CROSS_TENANT_ROLES = [adm, sc] as const satisfies readonly Role[];
type CrossTenantRole = (typeof CROSS_TENANT_ROLES)[number];

/**
 * Server actions. `roles` may act at all; `allCompanies` act on every tenant,
 * the others only inside their own company (another tenant's record is a 404).
 * `chooseCompany` roles may pick the company of a record they create.
 * `listsEveryCompany` (the company list only) see every company's public fields.
 */
export interface ActionRule {
  roles: readonly Role[];
  allCompanies: readonly CrossTenantRole[];
  chooseCompany?: readonly CrossTenantRole[];
  listsEveryCompany?: readonly Role[];
}

const staffExceptSupervisor: Role[] = [emp, adm, mgr, sc, sa, 'ROLE_USER'];

export const ACTIONS = {
  // Visitor journey (spec §6 request list)
  'requests.list': { roles: tileRoles('requests'), allCompanies: [adm] },
  'requests.validate': { roles: staffExceptSupervisor, allCompanies: [adm] },
  'requests.delete': { roles: [adm], allCompanies: [adm] },
  'visitors.viewDocument': {
    roles: [emp, adm, sup, mgr, sc, sa, 'ROLE_USER'],
    allCompanies: [adm],
  },
  // Check-in and check-out
  'checks.record': {
    roles: [...new Set([...tileRoles('camera'), ...tileRoles('manualCheck')])],
    allCompanies: [adm],
  },
  'visitorLogs.list': { roles: tileRoles('visitorLogs'), allCompanies: [adm] },
  'userChecks.list': { roles: tileRoles('userAttendance'), allCompanies: [adm] },
  'qrUsers.updateExpiry': { roles: tileRoles('userAttendance'), allCompanies: [adm] },
  // Events
  'events.list': { roles: tileRoles('events'), allCompanies: [adm, sc] },
  'events.create': {
    roles: tileRoles('createEvent'),
    allCompanies: [adm, sc],
    chooseCompany: [adm, sc],
  },
  'events.delete': { roles: [adm, sc, sup], allCompanies: [adm, sc] },
  'eventAttendance.list': { roles: tileRoles('eventAttendance'), allCompanies: [adm] },
  // Users
  'users.list': { roles: tileRoles('users'), allCompanies: [adm] },
  'users.create': {
    roles: tileRoles('createUser'),
    allCompanies: [adm, sc],
    chooseCompany: [adm, sc],
  },
  'users.update': { roles: [sa, sc, adm], allCompanies: [adm, sc] },
  'users.delete': { roles: [adm], allCompanies: [adm] },
  'employees.list': { roles: [adm, sup, mgr, sa, sc], allCompanies: [adm, sc] },
  // Companies
  // Spec §6 shows managers and super admins the list of all companies: its public
  // fields only (id, name, slug, logo, link, QR); the rest goes to who may update it.
  'companies.list': {
    roles: [...tileRoles('companies'), sup],
    allCompanies: [adm, sc],
    listsEveryCompany: [adm, mgr, sa, sc],
  },
  // Creating a company reaches no other tenant's record: the creator may then edit
  // it only if they act on every company.
  'companies.create': { roles: tileRoles('createCompany'), allCompanies: [adm, sc] },
  'companies.update': { roles: [adm, sa, sc, mgr, sup], allCompanies: [adm, sc] },
  'companies.delete': { roles: [adm], allCompanies: [adm] },
  // Permanent QR codes and member cards
  'qrUsers.list': { roles: [adm, sup, sc], allCompanies: [adm] },
  'qrUsers.create': {
    roles: tileRoles('createQrCode'),
    allCompanies: [adm, sc],
    chooseCompany: [adm, sc],
  },
  'members.create': {
    roles: tileRoles('createMemberCard'),
    allCompanies: [adm, sc],
    chooseCompany: [adm, sc],
  },
  'members.list': { roles: [adm, sup, mgr, sa, sc], allCompanies: [adm, sc] },
  // Privacy (issue 16): the audit log (the platform admin reads every company's), the
  // retention settings and privacy notice, and a person's export and erasure.
  'audit.list': { roles: tileRoles('audit'), allCompanies: [adm] },
  'privacy.settings': { roles: [adm, mgr, sa], allCompanies: [adm] },
  'privacy.rights': { roles: [adm, mgr, sa], allCompanies: [adm] },
  // Sites (issue 28): every staff member reads their company's sites (the site switcher,
  // the filters); the company's admin-side staff create, edit and archive them, and the
  // product's role as it edits companies.
  'sites.list': {
    roles: [emp, adm, sup, mgr, sc, sa, 'ROLE_USER'],
    allCompanies: [adm, sc],
  },
  'sites.manage': { roles: tileRoles('sites'), allCompanies: [adm, sc] },
  // Who is on site (issue 14): the list, and checking a person out from it.
  'onSite.list': { roles: tileRoles('onSite'), allCompanies: [adm, sc] },
  'onSite.checkOut': { roles: tileRoles('onSite'), allCompanies: [adm, sc] },
  // The evacuation roll call: start it, mark people safe or missing, end it, read its record.
  'rollCall.run': { roles: tileRoles('onSite'), allCompanies: [adm, sc] },
  // Issue 29: the lobby's kiosks (create, pair, revoke), and printing a visitor's badge from
  // the request list or the on-site list (the front desk and whoever reads those lists).
  'kiosks.manage': { roles: tileRoles('kiosks'), allCompanies: [adm, sc] },
  'badges.print': {
    roles: [...new Set([...tileRoles('requests'), ...tileRoles('onSite')])],
    allCompanies: [adm, sc],
  },
  // Issue 30: a host invites visitors to their own company's sites (no platform role acts
  // for another company's host), follows and changes their own invitations; whoever reads
  // the company's requests (requests.list) reads and changes every host's.
  'invitations.create': { roles: tileRoles('invite'), allCompanies: [] },
  // Issue 31: every staff member reads their company's visitor types (an invitation names
  // one); the sites' managers set them up, with the documents they sign. Whoever reads the
  // visits (requests, on-site) or a person's rights downloads a signed document.
  'visitorTypes.list': {
    roles: [emp, adm, sup, mgr, sc, sa, 'ROLE_USER'],
    allCompanies: [adm, sc],
  },
  'visitorTypes.manage': { roles: tileRoles('visitorTypes'), allCompanies: [adm, sc] },
  'signatures.read': {
    roles: [...new Set<Role>([...tileRoles('requests'), ...tileRoles('onSite'), adm, mgr, sa])],
    allCompanies: [adm, sc],
  },
  // The watchlist is the company's own: only the platform's admin reaches another's.
  'watchlist.manage': { roles: tileRoles('watchlist'), allCompanies: [adm] },
  'watchlist.review': { roles: tileRoles('watchlistReviews'), allCompanies: [adm] },
  // Issue 33: single sign-on settings and SCIM tokens, the company's own: only the
  // platform's admin reaches another company's.
  'sso.manage': { roles: tileRoles('sso'), allCompanies: [adm] },
  // Issue 34: API keys, webhooks and chat connections, the company's own likewise.
  'integrations.manage': {
    roles: [...new Set([...tileRoles('apiKeys'), ...tileRoles('webhooks'), ...tileRoles('chat')])],
    allCompanies: [adm],
  },
  // Issue 35: the dashboard and its CSV; the weekly summary mail goes to the same people.
  'dashboard.view': { roles: tileRoles('dashboard'), allCompanies: [adm] },
  // The live stream (Server-Sent Events): each event goes only to whom its own list's
  // action reaches (on-site changes: onSite.list; new requests: requests.list).
  'live.listen': {
    // A host hears their own invited visitors' news ("Je suis arrivé(e)", issue 30).
    roles: [...new Set([...tileRoles('onSite'), ...tileRoles('requests'), ...tileRoles('invite')])],
    allCompanies: [adm, sc],
  },
} as const satisfies Record<string, ActionRule>;

export type Action = keyof typeof ACTIONS;

export function mayPerform(role: Role, action: Action): boolean {
  return (ACTIONS[action].roles as readonly Role[]).includes(role);
}

/**
 * The staff pages below `/{domain}/` and the actions that open them (any one will do):
 * the page guard follows what the server lets a role do on the page, never the menu's
 * tiles, which are a different list (issue 27: a supervisor, whom the server serves their
 * company on 'Liste des Compagnies', got the 403 page there). A page not listed here (the
 * menu, the account pages, a record's detail) is open to every signed-in person, and its
 * own calls are guarded by the server.
 */
export const STAFF_PAGE_ACTIONS: Readonly<Record<string, readonly Action[]>> = {
  'event-attendences': ['eventAttendance.list'],
  'user-check-ins': ['userChecks.list'],
  'list-qrcode': ['requests.list'],
  'list-events': ['events.list'],
  'list-qrcode-events': ['events.list'],
  'create-event': ['events.create'],
  'company-list': ['companies.list'],
  'edit-company': ['companies.update'],
  'create-qr': ['qrUsers.create'],
  'qr-code-list': ['qrUsers.list'],
  'create-membre-qr': ['members.create'],
  'disable-user-qrcode': ['qrUsers.updateExpiry'],
  'list-users': ['users.list'],
  'create-user': ['users.create'],
  'manual-check': ['checks.record'],
  camera: ['checks.record'],
  'display-logs': ['visitorLogs.list'],
  'on-site': ['onSite.list'],
  audit: ['audit.list'],
  sites: ['sites.manage'],
  kiosks: ['kiosks.manage'],
  invite: ['invitations.create'],
  'my-visitors': ['invitations.create'],
  'visitor-types': ['visitorTypes.manage'],
  watchlist: ['watchlist.manage'],
  'watchlist-reviews': ['watchlist.review'],
  sso: ['sso.manage'],
  'api-keys': ['integrations.manage'],
  webhooks: ['integrations.manage'],
  chat: ['integrations.manage'],
  dashboard: ['dashboard.view'],
};

/** Whether `role` may open the staff page `page` (the segment after the company's slug). */
export function opensStaffPage(role: Role | null, page: string | undefined): boolean {
  const actions = page === undefined ? undefined : STAFF_PAGE_ACTIONS[page];
  if (!actions) return true;
  return !!role && actions.some((action) => mayPerform(role, action));
}

export function actsOnAllCompanies(role: Role, action: Action): boolean {
  return (ACTIONS[action].allCompanies as readonly Role[]).includes(role);
}

/** Whether `role`, of company `ownCompanyId`, may perform `action` on a record of `companyId`. */
export function reachesCompany(
  role: Role,
  action: Action,
  ownCompanyId: string,
  companyId: string,
): boolean {
  return (
    mayPerform(role, action) && (ownCompanyId === companyId || actsOnAllCompanies(role, action))
  );
}

/** Whether the company list shows this role every company (public fields) or its own. */
export function listsEveryCompany(role: Role): boolean {
  const rule: ActionRule = ACTIONS['companies.list'];
  return (rule.listsEveryCompany ?? []).includes(role);
}

export function mayChooseCompany(role: Role, action: Action): boolean {
  const rule: ActionRule = ACTIONS[action];
  const choosers: readonly Role[] = rule.chooseCompany ?? [];
  return choosers.includes(role);
}

/** Spec §6: the navbar link 'Modifier entreprise'. */
export const EDIT_COMPANY_LINK_ROLES: readonly Role[] = [mgr, sup];

/** Spec §6 user list: delete column for admin; Edit link for super admin and product role. */
export const USER_LIST_RULES = {
  deleteColumn: [adm] as readonly Role[],
  editLink: [sa, sc] as readonly Role[],
  /** A supervisor does not see admins nor themself. */
  hidesAdminsAndSelf: [sup] as readonly Role[],
};

/** Spec §6 company list. */
export const COMPANY_LIST_RULES = {
  ownCompanyOnly: [sup] as readonly Role[],
  editLinkForOwnCompanyOnlyRoles: [sa, sc] as readonly Role[],
  editLink: [sa, adm, sc] as readonly Role[],
  deleteButton: [adm] as readonly Role[],
};

/** Spec §6 request list: supervisors get no action column, only admin deletes. */
export const REQUEST_LIST_RULES = {
  noActionColumn: [sup] as readonly Role[],
  deleteColumn: [adm] as readonly Role[],
};
