/**
 * The answer to a visitor's form that does not parse, the same on every route that takes
 * one (a meeting request, an event registration): 413 when its identity document is too
 * large, else 400 with the first issue's message and each field's.
 */
import type { z } from 'zod';
import { firstVisitorIssue } from '@sesame/shared';
import { badRequest, payloadTooLarge, type HttpError } from '../errors';
import { issueMessage, issueMessages } from '../language';

export function visitorFormError(error: z.ZodError): HttpError {
  const message = issueMessage(error.issues[0] ?? {});
  if (firstVisitorIssue(error).key === 'fileTooLarge') return payloadTooLarge(message);
  return badRequest(message, issueMessages(error.issues));
}
