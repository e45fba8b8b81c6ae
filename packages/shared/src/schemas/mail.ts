/**
 * What staff see of a visitor mail (ARCHITECTURE §8), and the answers the server
 * gives when a dependency is out (issue 12). French is the product's voice.
 */
import { z } from 'zod';
import { fr } from '../messages/fr';

/** A mail's state as staff see it; `retrying` is a pending mail that failed at least once. */
export const MAIL_STATES = [
  'queued',
  'sending',
  'sent',
  'retrying',
  'failed',
  'cancelled',
] as const;
export type MailState = (typeof MAIL_STATES)[number];

/** What a mail is (issue 15): each is queued once for its cause. */
export const MAIL_KINDS = [
  'visitor_code',
  'visitor_ack',
  'visitor_declined',
  'visitor_reminder',
  'host_request',
  'host_arrival',
] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

export const mailStatusSchema = z.object({
  id: z.string(),
  kind: z.enum(MAIL_KINDS),
  state: z.enum(MAIL_STATES),
  to: z.string(),
  attempts: z.number().int(),
  /** The mail server's or the worker's last reason, when it failed or is retrying. */
  last_error: z.string().nullable(),
  sent_at: z.string().nullable(),
  next_attempt_at: z.string().nullable(),
  created_at: z.string(),
});
export type MailStatus = z.infer<typeof mailStatusSchema>;

export const mailStatusListSchema = z.object({ data: z.array(mailStatusSchema) });

export const MAIL_MESSAGES = fr.mail;

/** Answers when a dependency is out: the front desk reads them on the scanner. */
export const AVAILABILITY_MESSAGES = fr.availability;
