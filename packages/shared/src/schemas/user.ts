/**
 * Staff users (spec §2 CreateUser, User list, EditUser, Employee list; §3 User,
 * Employee; §5 User creation; §8 User creation). The web form and the server
 * routes read these same schemas and messages.
 */
import { z } from 'zod';
import { PASSWORD_MIN_LENGTH } from '../constants';
import { fr } from '../messages/fr';
import { ROLES } from '../roles';
import {
  SQL_INTEGER_MAX,
  TEXT_MAX,
  atMost,
  blankToUndefined,
  keyed,
  optionalLine,
  phoneText,
  requiredEmail,
  requiredLine,
  sayIssue,
} from './common';

/** Labels of the fields, as the required-field message names them. */
export const USER_FIELD_LABELS = fr.user.fields;
export type UserField = keyof typeof USER_FIELD_LABELS;

export const USER_MESSAGES = fr.user;

/** A user-form message with its locale key (`users:form.errors.<key>`). */
const userIssue = (key: Exclude<keyof typeof USER_MESSAGES, 'required' | 'fields'>) =>
  keyed((m) => m.user[key], { key });
const requiredIssue = (field: UserField) =>
  keyed((m) => m.user.required(field), { key: 'required', field });

/** How many sites a staff member may be limited to, at most (a company's sites, bounded). */
export const SITE_IDS_MAX = 200;

const requiredText = (field: UserField, max: number = TEXT_MAX.name) =>
  requiredLine(() => requiredIssue(field), max);

/** The phone rule of every form (issue 27): the server stores it in E.164, as a visitor's. */
const contactShape = phoneText();

const passwordShape = z
  .string(requiredIssue('password'))
  .max(...atMost(TEXT_MAX.password))
  .min(1, requiredIssue('password'))
  .min(
    PASSWORD_MIN_LENGTH,
    keyed((m) => m.user.passwordTooShort, { key: 'passwordTooShort', min: PASSWORD_MIN_LENGTH }),
  );

const userFields = {
  name: requiredText('name'),
  firstname: requiredText('firstname'),
  email: requiredEmail(() => requiredIssue('email'), userIssue('emailInvalid')),
  password: passwordShape,
  title: requiredText('title', TEXT_MAX.line),
  contact: z.preprocess(blankToUndefined, z.string(requiredIssue('contact')).pipe(contactShape)),
  role: z.preprocess(
    blankToUndefined,
    z.enum(ROLES, {
      error: (issue) =>
        (issue.input === undefined ? requiredIssue('role') : userIssue('roleInvalid')).error(issue),
    }),
  ),
  /** Ignored for roles that may not choose (spec §6 "Company choice"): they get their own. */
  company_id: z.preprocess(
    blankToUndefined,
    z.uuid({
      error: (issue) =>
        (issue.input === undefined
          ? requiredIssue('company_id')
          : userIssue('companyInvalid')
        ).error(issue),
    }),
  ),
  status: z.boolean().default(true),
  department_id: z.number().int().min(0).max(SQL_INTEGER_MAX).nullable().optional(),
  /**
   * Issue 28: the staff member's home site (null: none; left out: kept, none on creation)
   * and the sites they are limited to (empty: every site of the company; left out: kept,
   * every site on creation). Each an active site of the user's company; the home site
   * one of `site_ids` when they limit.
   */
  home_site_id: z.uuid(userIssue('siteInvalid')).nullable().optional(),
  site_ids: z
    .array(z.uuid(userIssue('siteInvalid')))
    .max(SITE_IDS_MAX, userIssue('siteInvalid'))
    .optional(),
};

/** POST /api/user/create (spec §5: every field required). */
export const userCreateSchema = z.object(userFields);
export type UserCreateInput = z.input<typeof userCreateSchema>;
export type UserCreate = z.output<typeof userCreateSchema>;

/**
 * PUT /api/user/{id}: the same form; a blank password keeps the current one. Spec §5
 * requires a title and a phone when a user is created only: an account may have
 * neither (the first admin is seeded without them), so on an edit they may stay
 * blank (no title, no phone), and a phone given must still be one.
 */
export const userUpdateSchema = z.object({
  ...userFields,
  password: z.preprocess(blankToUndefined, passwordShape.optional()),
  title: optionalLine(TEXT_MAX.line),
  contact: z.preprocess(blankToUndefined, contactShape.optional()),
});
export type UserUpdateInput = z.input<typeof userUpdateSchema>;
export type UserUpdate = z.output<typeof userUpdateSchema>;

/** A staff user as the API presents it (spec §3 User; the Employee view reads the same rows). */
export const userSchema = z.object({
  id: z.string(),
  name: z.string(),
  firstname: z.string(),
  email: z.string(),
  title: z.string().nullable(),
  contact: z.string().nullable(),
  /** The active role: the first of `roles`. */
  role: z.enum(ROLES),
  roles: z.array(z.string()),
  status: z.boolean(),
  department_id: z.number().nullable(),
  /** Issue 28: the home site (null: none) and the sites they are limited to (empty: every site). */
  home_site_id: z.string().nullable(),
  site_ids: z.array(z.string()),
  company_id: z.string(),
  /** The company's slug (spec §3 "User info"). */
  company: z.string(),
  company_name: z.string(),
  created_at: z.string(),
});
export type User = z.infer<typeof userSchema>;

/** 'Mon compte' (issue 17): every signed-in person changes their own password. */
export const ACCOUNT_FIELD_LABELS = fr.account.fields;
export type AccountField = keyof typeof ACCOUNT_FIELD_LABELS;

export const ACCOUNT_MESSAGES = fr.account;

const accountRequired = (field: AccountField) =>
  keyed((m) => m.account.required(field), { key: 'required', field });

const accountPassword = (field: AccountField) =>
  z
    .string(accountRequired(field))
    .max(...atMost(TEXT_MAX.password))
    .min(1, accountRequired(field));

/**
 * PUT /api/me/password. The new password follows the policy of every account
 * (PASSWORD_MIN_LENGTH here, and the server refuses common ones), is typed twice
 * alike, and differs from the current one, which the server checks.
 */
export const passwordChangeSchema = z
  .object({
    current_password: accountPassword('current_password'),
    new_password: accountPassword('new_password').min(
      PASSWORD_MIN_LENGTH,
      keyed((m) => m.user.passwordTooShort, { key: 'passwordTooShort', min: PASSWORD_MIN_LENGTH }),
    ),
    confirm_password: accountPassword('confirm_password'),
  })
  .superRefine((value, context) => {
    if (value.confirm_password !== value.new_password) {
      context.addIssue({
        code: 'custom',
        path: ['confirm_password'],
        ...sayIssue((m) => m.account.passwordMismatch, { key: 'passwordMismatch' }),
      });
    } else if (value.new_password === value.current_password) {
      context.addIssue({
        code: 'custom',
        path: ['new_password'],
        ...sayIssue((m) => m.account.passwordUnchanged, { key: 'passwordUnchanged' }),
      });
    }
  });
export type PasswordChangeInput = z.input<typeof passwordChangeSchema>;
export type PasswordChange = z.output<typeof passwordChangeSchema>;
