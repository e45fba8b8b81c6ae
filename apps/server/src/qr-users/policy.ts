/**
 * Who may read, change and re-issue one QR user or member card. Each right is
 * the union of actions of the shared matrix (packages/shared permissions):
 * reading a permanent QR is for those who list it (spec §6 QR user list), create
 * it (spec §6 company choice) or change its expiry (attendance's Edit link).
 * A route's `config.action` is the union for the kinds it serves (`actionsOf`);
 * `loadAuthorized` then narrows it to the card's own kind.
 */
import type { Action, QrUserKind } from '@sesame/shared';

export type Rights = Record<QrUserKind, readonly Action[]>;

export const VIEW: Rights = {
  permanent: ['qrUsers.list', 'qrUsers.create', 'qrUsers.updateExpiry'],
  member: ['members.list', 'members.create', 'qrUsers.updateExpiry'],
};

export const UPDATE: Rights = {
  permanent: ['qrUsers.updateExpiry', 'qrUsers.create'],
  member: ['qrUsers.updateExpiry', 'members.create'],
};

export const REISSUE: Rights = {
  permanent: ['qrUsers.create'],
  member: ['members.create'],
};

/** Every action of `rights` for the kinds a route serves. */
export function actionsOf(rights: Rights, kinds: readonly QrUserKind[]): Action[] {
  return [...new Set(kinds.flatMap((kind) => rights[kind]))];
}
