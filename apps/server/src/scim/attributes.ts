/**
 * Reading a SCIM resource's attributes as a directory sends them (RFC 7643 §2.1: names are
 * case-insensitive), for Users and Groups alike. A value of the wrong type is a 400
 * invalidValue naming the attribute.
 */
import { invalidValue } from './errors';

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** An attribute's value of any case (`userName`, `username`). */
export function field(body: Record<string, unknown>, name: string): unknown {
  const key = Object.keys(body).find((k) => k.toLowerCase() === name.toLowerCase());
  return key === undefined ? undefined : body[key];
}

export function text(value: unknown, attribute: string): string {
  if (typeof value !== 'string') throw invalidValue(attribute);
  return value;
}

export function optionalText(value: unknown, attribute: string): string | null {
  if (value === undefined || value === null) return null;
  return text(value, attribute);
}
