/**
 * The screens translate a shared schema's issue by its key; in French that must read
 * exactly as the schema's own message (the spec's wording, which the server answers).
 */
import { describe, expect, it } from 'vitest';
import {
  ENGLISH_MESSAGES,
  FRENCH_MESSAGES,
  companyCreateSchema,
  createMemberFieldsSchema,
  createQrUserFieldsSchema,
  eventCreateSchema,
  expiryFormSchema,
  loginSchema,
  passwordChangeSchema,
  userCreateSchema,
  visitorFormSchema,
} from '@sesame/shared';
import auth from '../src/locales/fr/auth.json';
import commonEn from '../src/locales/en/common.json';
import usersEn from '../src/locales/en/users.json';
import common from '../src/locales/fr/common.json';
import companies from '../src/locales/fr/companies.json';
import events from '../src/locales/fr/events.json';
import qrUsers from '../src/locales/fr/qrUsers.json';
import users from '../src/locales/fr/users.json';
import visitors from '../src/locales/fr/visitors.json';
import {
  fieldErrors,
  issueText,
  type FormIssue,
  type MessageKeys,
  type Translate,
} from '../src/lib/schema-errors';
import { Translator } from '../src/lib/translator';

const i18n = new Translator({
  language: 'fr',
  fallbackLanguage: 'fr',
  defaultNamespace: 'common',
  load: () => Promise.reject(new Error('every namespace is given')),
});
for (const [ns, words] of Object.entries({
  auth,
  common,
  companies,
  events,
  qrUsers,
  users,
  visitors,
})) {
  i18n.add('fr', ns, words);
}

interface Case {
  ns: string;
  keys?: MessageKeys;
  schema: { safeParse(input: unknown): { error?: { issues: readonly FormIssue[] } } };
  inputs: unknown[];
}

const long = 'x'.repeat(400);
const CASES: Record<string, Case> = {
  login: {
    ns: 'auth',
    keys: { errors: 'errors' },
    schema: loginSchema,
    inputs: [{}, { username: 'nope', password: long }, { username: long }],
  },
  user: {
    ns: 'users',
    schema: userCreateSchema,
    inputs: [
      {},
      { email: 'nope', contact: '12', password: 'short', role: 'ROLE_X', company_id: 'x' },
      { name: long },
      // Issue 26 §5: a line break or a control character in a single-line field.
      { name: 'A\nB', firstname: 'A\tB', title: 'A\u0085B' },
    ],
  },
  account: {
    ns: 'users',
    keys: { errors: 'account.errors', fields: 'account.fields' },
    schema: passwordChangeSchema,
    inputs: [
      {},
      { current_password: 'a', new_password: 'court', confirm_password: 'court' },
      { current_password: 'a', new_password: 'Assez-long-1234', confirm_password: 'Autre-1234567' },
      {
        current_password: 'Pareil-123456',
        new_password: 'Pareil-123456',
        confirm_password: 'Pareil-123456',
      },
      { current_password: long, new_password: long, confirm_password: long },
    ],
  },
  qrUser: {
    ns: 'qrUsers',
    schema: createQrUserFieldsSchema,
    inputs: [
      { email: 'nope', contact: '12', type: 'other', dateExp: '2026-02-30', company_id: 'x' },
      { firstname: 'A\r\nB', title: 'A\u009bB' },
    ],
  },
  member: { ns: 'qrUsers', schema: createMemberFieldsSchema, inputs: [{}] },
  expiry: { ns: 'qrUsers', schema: expiryFormSchema, inputs: [{}, { dateExp: '2026-02-30' }] },
  event: {
    ns: 'events',
    keys: { errors: 'create.errors' },
    schema: eventCreateSchema,
    inputs: [
      {},
      { date_event: '31/02/2030', time_event: '25:00', departement_id: 'x' },
      { name: 'A\nB', location: 'A\u0000B' },
    ],
  },
  company: {
    ns: 'companies',
    schema: companyCreateSchema,
    inputs: [
      {},
      { email: 'nope', phone_number: '12', number_of_employee: '7', arrival_early_minutes: '900' },
      { kiosk_email_enabled: 'maybe' },
      // A single-line field, and the description, which keeps its line feeds only.
      { name: 'A\nB', description: 'Ligne 1\nLigne\t2' },
    ],
  },
  visitor: {
    ns: 'visitors',
    keys: { errors: 'form.errors', fields: 'form.fields' },
    schema: visitorFormSchema,
    inputs: [
      {},
      {
        firstname: 'A',
        lastname: 'B',
        id_number: 'C',
        organisation_name: 'D',
        email: 'nope',
        contact: '12',
        request_date: '31/02/2030',
        request_time: 'HH:MM',
        request_image: { size: 3 * 1024 * 1024 },
      },
      { firstname: 'A\nB', host: 'A\tB', reason: 'A\u2028B' },
    ],
  },
};

describe('French locale = the shared schemas’ French, issue by issue', () => {
  for (const [name, { ns, keys, schema, inputs }] of Object.entries(CASES)) {
    it(name, () => {
      const t: Translate = i18n.fixedT([ns]);
      const text = issueText(t, keys);
      let seen = 0;
      for (const input of inputs) {
        for (const issue of schema.safeParse(input).error?.issues ?? []) {
          expect(text(issue), `${name} ${String(issue.path[0])}`).toBe(issue.message);
          seen++;
        }
      }
      expect(seen).toBeGreaterThan(0);
      // Sanity: the mapping keeps one message per field.
      const first = schema.safeParse(inputs[0]).error?.issues ?? [];
      expect(Object.keys(fieldErrors(first, text).errors).length).toBeGreaterThan(0);
    });
  }
});

describe('a line break or a control character (issue 26 §5) reads in each language', () => {
  it('the app’s common words have the keys: French as the schema says it, English in English', () => {
    const english = new Translator({
      language: 'en',
      fallbackLanguage: 'en',
      defaultNamespace: 'common',
      load: () => Promise.reject(new Error('every namespace is given')),
    });
    english.add('en', 'common', commonEn);
    english.add('en', 'users', usersEn);
    const single = userCreateSchema.safeParse({ name: 'A\nB' }).error!.issues;
    const multi = companyCreateSchema.safeParse({ description: 'A\tB' }).error!.issues;
    const issueOf = (issues: readonly FormIssue[], field: string) =>
      issues.find((issue) => issue.path[0] === field)!;
    for (const [t, messages] of [
      [i18n.fixedT(['users']), FRENCH_MESSAGES],
      [english.fixedT(['users']), ENGLISH_MESSAGES],
    ] as const) {
      // No default: a missing key would show the key itself, not the catalogue's words.
      const bare: Translate = (keys, options = {}) => t(keys, { ...options, defaultValue: '' });
      expect(issueText(bare)(issueOf(single, 'name'))).toBe(messages.validation.controlChars);
      expect(issueText(bare)(issueOf(multi, 'description'))).toBe(
        messages.validation.controlCharsInText,
      );
    }
  });
});
