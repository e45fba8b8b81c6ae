/**
 * SCIM's wire shapes (RFC 7643): a User and a Group of Sésame, the ListResponse, and the
 * discovery documents (ServiceProviderConfig, ResourceTypes, Schemas). Never a password
 * hash, never a role: a role follows the groups (company_sso.role_mappings).
 */
import { SSO_LIMITS } from '@sesame/shared';
import { attributeName } from './filter';

export const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';
export const GROUP_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Group';
export const LIST_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
const CONFIG_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig';
const RESOURCE_TYPE_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:ResourceType';
const SCHEMA_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:Schema';

export type ScimResource = Record<string, unknown> & { id: string };

export interface ScimUserRow {
  id: string;
  email: string;
  firstname: string;
  name: string;
  title: string | null;
  contact: string | null;
  status: boolean;
  externalId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface ScimGroupRow {
  id: string;
  displayName: string;
  externalId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** `{base}/scim/v2`: where the resources' `location` points. */
export const scimBase = (publicUrl: string) => `${publicUrl}/scim/v2`;

export function presentUser(
  base: string,
  user: ScimUserRow,
  groups: { id: string; displayName: string }[],
): ScimResource {
  const displayName = `${user.firstname} ${user.name}`.trim();
  return {
    schemas: [USER_SCHEMA],
    id: user.id,
    ...(user.externalId !== null ? { externalId: user.externalId } : {}),
    userName: user.email,
    name: { givenName: user.firstname, familyName: user.name, formatted: displayName },
    displayName,
    emails: [{ value: user.email, primary: true, type: 'work' }],
    ...(user.contact
      ? { phoneNumbers: [{ value: user.contact, type: 'work', primary: true }] }
      : {}),
    ...(user.title ? { title: user.title } : {}),
    active: user.status,
    groups: groups.map((g) => ({
      value: g.id,
      display: g.displayName,
      $ref: `${base}/Groups/${g.id}`,
      type: 'direct',
    })),
    meta: {
      resourceType: 'User',
      created: user.createdAt.toISOString(),
      lastModified: user.updatedAt.toISOString(),
      location: `${base}/Users/${user.id}`,
    },
  };
}

export function presentGroup(
  base: string,
  group: ScimGroupRow,
  members: { id: string; firstname: string; name: string }[],
): ScimResource {
  return {
    schemas: [GROUP_SCHEMA],
    id: group.id,
    displayName: group.displayName,
    ...(group.externalId !== null ? { externalId: group.externalId } : {}),
    members: members.map((m) => ({
      value: m.id,
      display: `${m.firstname} ${m.name}`.trim(),
      $ref: `${base}/Users/${m.id}`,
      type: 'User',
    })),
    meta: {
      resourceType: 'Group',
      created: group.createdAt.toISOString(),
      lastModified: group.updatedAt.toISOString(),
      location: `${base}/Groups/${group.id}`,
    },
  };
}

/** The top-level names of `attributes` / `excludedAttributes` (`name.givenName` → `name`). */
export function attributeList(text: string | undefined): string[] | undefined {
  if (!text) return undefined;
  return text
    .split(',')
    .map((a) => attributeName(a.trim()).split('.')[0]!)
    .filter((a) => a !== '');
}

/**
 * RFC 7644 §3.9: only the attributes asked for (`schemas` and `id` always), or all but the
 * ones excluded.
 */
export function project(
  resource: ScimResource,
  attributes: string[] | undefined,
  excluded: string[] | undefined,
): ScimResource {
  const always = new Set(['schemas', 'id']);
  const keep = (key: string) => {
    const name = key.toLowerCase();
    if (always.has(name)) return true;
    if (attributes) return attributes.includes(name);
    return !excluded?.includes(name);
  };
  // Object.fromEntries gives string keys; the entries are the resource's own, some left out.
  return Object.fromEntries(Object.entries(resource).filter(([key]) => keep(key))) as ScimResource;
}

export function listResponse(resources: unknown[], total: number, startIndex: number) {
  return {
    schemas: [LIST_SCHEMA],
    totalResults: total,
    itemsPerPage: resources.length,
    startIndex,
    Resources: resources,
  };
}

export function serviceProviderConfig(base: string) {
  return {
    schemas: [CONFIG_SCHEMA],
    patch: { supported: true },
    bulk: { supported: false, maxOperations: 0, maxPayloadSize: 0 },
    filter: { supported: true, maxResults: SSO_LIMITS.scimPageMax },
    changePassword: { supported: false },
    sort: { supported: false },
    etag: { supported: false },
    authenticationSchemes: [
      {
        type: 'oauthbearertoken',
        name: 'OAuth Bearer Token',
        description:
          "A SCIM token of the company (Sésame, Configuration SSO), sent as 'Authorization: Bearer scim_…'.",
        primary: true,
      },
    ],
    meta: {
      resourceType: 'ServiceProviderConfig',
      location: `${base}/ServiceProviderConfig`,
    },
  };
}

export function resourceTypes(base: string) {
  return [
    { id: 'User', name: 'User', endpoint: '/Users', schema: USER_SCHEMA },
    { id: 'Group', name: 'Group', endpoint: '/Groups', schema: GROUP_SCHEMA },
  ].map((type) => ({
    schemas: [RESOURCE_TYPE_SCHEMA],
    ...type,
    description: type.id === 'User' ? 'A staff account' : 'A group of staff accounts',
    schemaExtensions: [],
    meta: { resourceType: 'ResourceType', location: `${base}/ResourceTypes/${type.id}` },
  }));
}

interface AttributeOptions {
  type?: 'string' | 'boolean' | 'complex' | 'reference' | 'dateTime';
  multiValued?: boolean;
  required?: boolean;
  mutability?: 'readOnly' | 'readWrite' | 'immutable' | 'writeOnly';
  uniqueness?: 'none' | 'server' | 'global';
  caseExact?: boolean;
  subAttributes?: ReturnType<typeof attribute>[];
  referenceTypes?: string[];
}

function attribute(name: string, options: AttributeOptions = {}): Record<string, unknown> {
  const { type = 'string', subAttributes, referenceTypes, ...rest } = options;
  return {
    name,
    type,
    multiValued: rest.multiValued ?? false,
    description: name,
    required: rest.required ?? false,
    caseExact: rest.caseExact ?? false,
    mutability: rest.mutability ?? 'readWrite',
    returned: 'default',
    uniqueness: rest.uniqueness ?? 'none',
    ...(subAttributes ? { subAttributes } : {}),
    ...(referenceTypes ? { referenceTypes } : {}),
  };
}

const valueOf = (options: AttributeOptions = {}) => [
  attribute('value', options),
  attribute('display', { mutability: 'readOnly' }),
  attribute('type'),
  attribute('primary', { type: 'boolean' }),
];

export function schemas(base: string) {
  const userAttributes = [
    attribute('userName', { required: true, uniqueness: 'server' }),
    attribute('externalId', { caseExact: true }),
    attribute('name', {
      type: 'complex',
      subAttributes: [attribute('givenName'), attribute('familyName'), attribute('formatted')],
    }),
    attribute('displayName'),
    attribute('title'),
    attribute('active', { type: 'boolean' }),
    attribute('emails', { type: 'complex', multiValued: true, subAttributes: valueOf() }),
    attribute('phoneNumbers', { type: 'complex', multiValued: true, subAttributes: valueOf() }),
    attribute('groups', {
      type: 'complex',
      multiValued: true,
      mutability: 'readOnly',
      subAttributes: valueOf({ mutability: 'readOnly' }),
    }),
  ];
  const groupAttributes = [
    attribute('displayName', { required: true, uniqueness: 'server' }),
    attribute('externalId', { caseExact: true }),
    attribute('members', {
      type: 'complex',
      multiValued: true,
      subAttributes: [
        attribute('value', { mutability: 'immutable' }),
        attribute('display', { mutability: 'readOnly' }),
        attribute('$ref', { type: 'reference', referenceTypes: ['User'] }),
        attribute('type', { mutability: 'immutable' }),
      ],
    }),
  ];
  return [
    { id: USER_SCHEMA, name: 'User', description: 'A staff account', attributes: userAttributes },
    {
      id: GROUP_SCHEMA,
      name: 'Group',
      description: 'A group of staff accounts',
      attributes: groupAttributes,
    },
  ].map((schema) => ({
    schemas: [SCHEMA_SCHEMA],
    ...schema,
    meta: { resourceType: 'Schema', location: `${base}/Schemas/${schema.id}` },
  }));
}
