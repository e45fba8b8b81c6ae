/**
 * Whether a password is good enough for a Sésame account: at least
 * PASSWORD_MIN_LENGTH characters (the shared schema says so on both sides) and
 * not common or guessable, as a maintained estimator (zxcvbn-ts, with its
 * dictionary of leaked passwords and keyboard patterns) judges it. The estimator
 * stays on the server: its dictionary would weigh on every page of the web app.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import type * as CommonLanguage from '@zxcvbn-ts/language-common';
import { PASSWORD_MIN_LENGTH } from '@sesame/shared';
import { badRequest } from '../errors';

/** Why a password is refused: a key of the catalogue's `user` messages. */
export type PasswordProblem = 'passwordTooShort' | 'passwordWeak';

/** zxcvbn's score 3: "safely unguessable", out of reach of an online attack and costly offline. */
const MIN_SCORE = 3;

const requireHere = createRequire(import.meta.url);

/**
 * The word lists, read when a password is judged and not kept by the module system: imported,
 * they stayed for the server's whole life (13 MB resident in a bare Node process), though
 * passwords are set rarely. Required here and dropped from require's cache at once, they go
 * with the last estimator holding them (8–9 MB of the 13 are given back after a collection).
 */
function commonLanguage(): typeof CommonLanguage {
  const entry = requireHere.resolve('@zxcvbn-ts/language-common');
  const folder = path.dirname(entry) + path.sep;
  try {
    return requireHere(entry) as typeof CommonLanguage;
  } finally {
    for (const id of Object.keys(requireHere.cache))
      if (id.startsWith(folder)) delete requireHere.cache[id];
  }
}

/**
 * The estimator, built when a password is judged and let go when memory is collected: its
 * ranked dictionaries hold about 12 MB, and passwords are set rarely (the start's own check of
 * ADMIN_PASSWORD kept them for the server's whole life). Building it again takes 15–45 ms.
 */
let estimator: WeakRef<ZxcvbnFactory> | undefined;
function strength(): ZxcvbnFactory {
  const kept = estimator?.deref();
  if (kept) return kept;
  const { dictionary, adjacencyGraphs } = commonLanguage();
  const built = new ZxcvbnFactory({ dictionary, graphs: adjacencyGraphs });
  estimator = new WeakRef(built);
  return built;
}

/**
 * Null when the password may be used, else the key of the product's message saying why.
 * `personal` are the account's own words (e-mail, names), which never make a password.
 */
export function passwordProblem(password: string, personal: string[] = []): PasswordProblem | null {
  if (password.length < PASSWORD_MIN_LENGTH) return 'passwordTooShort';
  const words = [...personal.flatMap((text) => text.toLowerCase().split(/[@.\s_-]/)), 'sesame'];
  const { score } = strength().check(
    password,
    words.filter((word) => word.length >= 3),
  );
  return score >= MIN_SCORE ? null : 'passwordWeak';
}

/** 400 on the password field when `passwordProblem` finds one. */
export function assertPasswordAcceptable(password: string, personal: string[] = []): void {
  const problem = passwordProblem(password, personal);
  if (problem) throw badRequest((m) => m.user[problem], { password: (m) => m.user[problem] });
}
