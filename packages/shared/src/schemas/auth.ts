import { z } from 'zod';
import { ROLES } from '../roles';
import { fr } from '../messages/fr';
import { EMAIL_PATTERN, TEXT_MAX, atMost, keyed } from './common';

/** Spec §5 Login, in the spec's order and wording. */
export const LOGIN_MESSAGES = fr.login;

/** A login message with its locale key (`auth:errors.<key>`). */
const loginIssue = (key: keyof typeof LOGIN_MESSAGES) => keyed((m) => m.login[key], { key });

/** POST /api/login_check: the spec sends the e-mail as `username`. */
export const loginSchema = z.object({
  username: z
    .string(loginIssue('emailRequired'))
    .max(TEXT_MAX.email, { ...loginIssue('emailInvalid'), abort: true })
    .trim()
    .min(1, loginIssue('emailRequired'))
    .regex(EMAIL_PATTERN, loginIssue('emailInvalid')),
  password: z
    .string(loginIssue('passwordRequired'))
    .max(...atMost(TEXT_MAX.password))
    .min(1, loginIssue('passwordRequired')),
});
export type LoginInput = z.infer<typeof loginSchema>;

export const loginResponseSchema = z.object({ token: z.string(), expires_at: z.string() });

/** GET /api/user/info (spec §3 "User info"). */
export const userInfoSchema = z.object({
  id: z.string(),
  name: z.string(),
  firstname: z.string(),
  email: z.string(),
  roles: z.array(z.enum(ROLES)),
  company_id: z.string(),
  company: z.string(),
  company_name: z.string(),
  /** Issue 28: their home site (null: none) and the sites they are limited to (empty: every site). */
  home_site_id: z.string().nullable(),
  site_ids: z.array(z.string()),
  /**
   * Issue 33: the person's password is not Sésame's to change (an account the company's
   * provider or directory manages, or a company that enforces its provider): the account
   * page says so instead of offering the form.
   */
  password_managed: z.boolean(),
});
export type UserInfo = z.infer<typeof userInfoSchema>;
