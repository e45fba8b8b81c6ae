/**
 * SCIM filters (RFC 7644 §3.4.2.2), the part a directory sends: comparisons joined by `and`
 * and `or`, in parentheses if need be (`userName eq "a@b.c"`, `externalId eq "…" and
 * active eq true`). Read by hand, without a regular expression that could backtrack; a
 * filter Sésame does not answer (another operator, an attribute it does not search, a
 * value path inside a filter) is a 400 invalidFilter rather than a wrong list.
 */
import { and, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { invalidFilter } from './errors';

/** The longest filter read, and the most comparisons in one. */
export const FILTER_MAX_LENGTH = 1000;
const COMPARISONS_MAX = 20;

export type FilterValue = string | number | boolean | null;

export type Filter =
  | { kind: 'compare'; attribute: string; op: string; value: FilterValue }
  | { kind: 'and' | 'or'; left: Filter; right: Filter };

type Token =
  { type: 'open' | 'close' } | { type: 'word'; text: string } | { type: 'string'; text: string };

const OPERATORS = new Set(['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le', 'pr']);

/** The core schemas' URN before an attribute (`urn:…:core:2.0:User:userName`) is dropped. */
const CORE_PREFIXES = [
  'urn:ietf:params:scim:schemas:core:2.0:user:',
  'urn:ietf:params:scim:schemas:core:2.0:group:',
];

/** An attribute path, lowercased (SCIM names are case-insensitive), without its core URN. */
export function attributeName(path: string): string {
  const lower = path.toLowerCase();
  const prefix = CORE_PREFIXES.find((p) => lower.startsWith(p));
  return prefix ? lower.slice(prefix.length) : lower;
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  const isSpace = (c: string) => c === ' ' || c === '\t' || c === '\n' || c === '\r';
  while (i < text.length) {
    const c = text[i]!;
    if (isSpace(c)) {
      i += 1;
    } else if (c === '(' || c === ')') {
      tokens.push({ type: c === '(' ? 'open' : 'close' });
      i += 1;
    } else if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (j >= text.length) throw invalidFilter(text);
      try {
        // JSON.parse of a quoted JSON string gives a string.
        tokens.push({ type: 'string', text: JSON.parse(text.slice(i, j + 1)) as string });
      } catch {
        throw invalidFilter(text);
      }
      i = j + 1;
    } else if (c === '[' || c === ']') {
      // A value path (`emails[type eq "work"]`) inside a filter: not searched.
      throw invalidFilter(text);
    } else {
      let j = i;
      while (j < text.length && !isSpace(text[j]!) && !'()"[]'.includes(text[j]!)) j += 1;
      tokens.push({ type: 'word', text: text.slice(i, j) });
      i = j;
    }
  }
  return tokens;
}

/** Reads a filter; 400 invalidFilter when it is not one Sésame understands. */
export function parseFilter(text: string): Filter {
  if (text.length > FILTER_MAX_LENGTH) throw invalidFilter(text);
  const tokens = tokenize(text);
  let at = 0;
  let comparisons = 0;
  const fail = () => invalidFilter(text);
  const word = (t: Token | undefined) => (t?.type === 'word' ? t.text.toLowerCase() : undefined);

  const literal = (t: Token | undefined): FilterValue => {
    if (t?.type === 'string') return t.text;
    const w = word(t);
    if (w === 'true') return true;
    if (w === 'false') return false;
    if (w === 'null') return null;
    if (t?.type === 'word' && t.text !== '' && Number.isFinite(Number(t.text))) {
      return Number(t.text);
    }
    throw fail();
  };

  const atom = (): Filter => {
    const t = tokens[at];
    if (t?.type === 'open') {
      at += 1;
      const inner = either();
      if (tokens[at]?.type !== 'close') throw fail();
      at += 1;
      return inner;
    }
    if (t?.type !== 'word' || word(t) === 'not') throw fail();
    const op = word(tokens[at + 1]);
    if (!op || !OPERATORS.has(op)) throw fail();
    comparisons += 1;
    if (comparisons > COMPARISONS_MAX) throw fail();
    if (op === 'pr') {
      at += 2;
      return { kind: 'compare', attribute: attributeName(t.text), op, value: null };
    }
    const value = literal(tokens[at + 2]);
    at += 3;
    return { kind: 'compare', attribute: attributeName(t.text), op, value };
  };

  const both = (): Filter => {
    let left = atom();
    while (word(tokens[at]) === 'and') {
      at += 1;
      left = { kind: 'and', left, right: atom() };
    }
    return left;
  };

  const either = (): Filter => {
    let left = both();
    while (word(tokens[at]) === 'or') {
      at += 1;
      left = { kind: 'or', left, right: both() };
    }
    return left;
  };

  const filter = either();
  if (at !== tokens.length) throw fail();
  return filter;
}

/** How one searchable attribute becomes SQL: given the comparison, or undefined (not searched). */
export type AttributeSql = (op: string, value: FilterValue) => SQL | undefined;

/** A filter as a WHERE condition over the attributes given; 400 invalidFilter for the rest. */
export function filterSql(
  filter: Filter,
  attributes: Record<string, AttributeSql>,
  text: string,
): SQL {
  if (filter.kind === 'compare') {
    const condition = attributes[filter.attribute]?.(filter.op, filter.value);
    if (!condition) throw invalidFilter(text);
    return condition;
  }
  const left = filterSql(filter.left, attributes, text);
  const right = filterSql(filter.right, attributes, text);
  return (filter.kind === 'and' ? and(left, right) : or(left, right))!;
}

/** `eq` on a text compared without regard to case (SCIM's caseExact false). */
export const textEqualsIgnoringCase =
  (column: AnyPgColumn | SQL): AttributeSql =>
  (op, value) =>
    op === 'eq' && typeof value === 'string'
      ? sql`lower(${column}) = ${value.toLowerCase()}`
      : undefined;

/** `eq` on a text compared exactly (SCIM's caseExact true: ids, externalId). */
export const textEquals =
  (column: AnyPgColumn | SQL): AttributeSql =>
  (op, value) =>
    op === 'eq' && typeof value === 'string' ? sql`${column} = ${value}` : undefined;

/**
 * Whether an element of a multi-valued attribute matches a value filter of a PATCH path
 * (`emails[type eq "work"]`, `members[value eq "…"]`): `eq` (strings without regard to
 * case) and `pr`, joined by `and` and `or`.
 */
export function matchesElement(filter: Filter, element: Record<string, unknown>): boolean {
  if (filter.kind !== 'compare') {
    const left = matchesElement(filter.left, element);
    const right = matchesElement(filter.right, element);
    return filter.kind === 'and' ? left && right : left || right;
  }
  const key = Object.keys(element).find((k) => k.toLowerCase() === filter.attribute);
  const actual = key === undefined ? undefined : element[key];
  if (filter.op === 'pr') return actual !== undefined && actual !== null && actual !== '';
  if (filter.op !== 'eq') throw invalidFilter(`${filter.attribute} ${filter.op}`);
  if (typeof actual === 'string' && typeof filter.value === 'string') {
    return actual.toLowerCase() === filter.value.toLowerCase();
  }
  return actual === filter.value;
}
