/**
 * PATCH (RFC 7644 §3.5.2): a list of operations, each `add`, `replace` or `remove`, with a
 * path (`active`, `name.givenName`, `emails[type eq "work"].value`, `members[value eq "…"]`)
 * or, for add and replace, without one: then the value is an object whose every key is a
 * path (Entra ID's `{ op: 'Replace', value: { active: false } }`). The operator's case is
 * not significant (Entra ID writes `Replace`). Each resource applies the operations to a
 * draft of itself, which is then written as a PUT would be, in one transaction.
 */
import { invalidPath, invalidSyntax, invalidValue, noTarget } from './errors';
import { attributeName, parseFilter, type Filter } from './filter';

export const PATCH_OP_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
/** The most operations one PATCH carries. */
const OPERATIONS_MAX = 1000;

export type PatchVerb = 'add' | 'replace' | 'remove';

export interface PatchPath {
  /** The attribute, lowercased, without the core URN: `name`, `emails`, `members`. */
  attribute: string;
  /** The value filter of a multi-valued attribute: `emails[type eq "work"]`. */
  filter?: Filter;
  /** The sub-attribute, lowercased: `givenname` of `name.givenName`. */
  sub?: string;
  raw: string;
}

/** One operation on one attribute (an operation without a path is split by its keys). */
export interface PatchStep {
  op: PatchVerb;
  path: PatchPath;
  value: unknown;
}

/** An extension schema's attribute (the enterprise User's `department`): Sésame keeps none. */
export const isExtension = (path: string) =>
  path.toLowerCase().startsWith('urn:') && attributeName(path).startsWith('urn:');

export function parsePath(raw: string): PatchPath {
  if (raw.length > 500 || raw.trim() === '') throw invalidPath(raw);
  if (isExtension(raw)) return { attribute: raw.toLowerCase(), raw };
  const open = raw.indexOf('[');
  if (open >= 0) {
    const close = raw.lastIndexOf(']');
    if (close < open) throw invalidPath(raw);
    const rest = raw.slice(close + 1);
    if (rest !== '' && !rest.startsWith('.')) throw invalidPath(raw);
    return {
      attribute: attributeName(raw.slice(0, open)),
      filter: parseFilter(raw.slice(open + 1, close)),
      ...(rest ? { sub: rest.slice(1).toLowerCase() } : {}),
      raw,
    };
  }
  const name = attributeName(raw);
  const dot = name.indexOf('.');
  return dot < 0
    ? { attribute: name, raw }
    : { attribute: name.slice(0, dot), sub: name.slice(dot + 1), raw };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The operations of a PATCH body, each on one path; 400 invalidSyntax when malformed. */
export function readPatch(body: unknown): PatchStep[] {
  if (!isObject(body)) throw invalidSyntax();
  const operations = body.Operations ?? body.operations;
  if (!Array.isArray(operations) || operations.length > OPERATIONS_MAX) throw invalidSyntax();
  const steps: PatchStep[] = [];
  for (const operation of operations) {
    if (!isObject(operation) || typeof operation.op !== 'string') throw invalidSyntax();
    const op = operation.op.toLowerCase();
    if (op !== 'add' && op !== 'replace' && op !== 'remove') throw invalidSyntax();
    const { path, value } = operation;
    if (path !== undefined && typeof path !== 'string') throw invalidPath(String(path));
    if (path !== undefined && path !== '') {
      if (op !== 'remove' && value === undefined) throw invalidValue(path);
      steps.push({ op, path: parsePath(path), value });
      continue;
    }
    if (op === 'remove') throw noTarget('');
    if (!isObject(value)) throw invalidValue('value');
    for (const [key, each] of Object.entries(value)) {
      if (isExtension(key)) continue;
      steps.push({ op, path: parsePath(key), value: each });
    }
  }
  return steps;
}

/** A boolean as directories write it: `false`, or Entra ID's `"False"`. */
export function readBoolean(value: unknown, attribute: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && ['true', 'false'].includes(value.toLowerCase())) {
    return value.toLowerCase() === 'true';
  }
  throw invalidValue(attribute);
}
