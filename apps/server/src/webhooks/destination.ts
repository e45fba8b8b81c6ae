/**
 * A company-typed URL refused at save (issue 34): the sentence and the 400 on the field,
 * the same for a webhook's URL and a chat channel's, as safePost would refuse it at send.
 */
import type { Say } from '@sesame/shared';
import { badRequest } from '../errors';
import { destinationRefusal, type Refusal } from './safe-post';

export const REFUSAL_MESSAGES: Record<Refusal, Say> = {
  not_https: (m) => m.integrations.urlNotHttps,
  private_address: (m) => m.integrations.urlPrivate,
  invalid_url: (m) => m.integrations.urlInvalid,
};

/** Throws 400 on `url` when Sésame would not post to it. */
export function assertDeliverable(url: string, allowPrivate: boolean): void {
  const refusal = destinationRefusal(url, allowPrivate);
  if (refusal) throw badRequest(REFUSAL_MESSAGES[refusal], { url: REFUSAL_MESSAGES[refusal] });
}
