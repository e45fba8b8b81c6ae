import { describe, expect, it } from 'vitest';
import {
  ENGLISH_MESSAGES,
  FRENCH_MESSAGES,
  eventCreateSchema,
  loginSchema,
  userCreateSchema,
  visitorFormSchema,
  type IssueParams,
} from '@sesame/shared';
import {
  fieldErrors,
  issueText,
  mergeFieldErrors,
  type FormIssue,
  type Translate,
} from '../src/lib/schema-errors';

/** A stand-in for the translator's t: the first key that exists, filled with its values. */
const messages: Record<string, string> = {
  'form.errors.required': 'Required: {{label}}',
  'form.errors.emailInvalid': 'Bad e-mail',
  'fields.name': 'Name',
  'fields.firstname': 'First name',
  'common:validation.tooLong': 'At most {{max}} characters',
};
const t: Translate = (keys, options = {}) => {
  const key = (Array.isArray(keys) ? keys : [keys]).find((k) => k in messages);
  const template = key ? messages[key]! : String(options.defaultValue ?? keys);
  return template.replace(/\{\{(\w+)\}\}/g, (_m, name: string) => String(options[name] ?? ''));
};
const issues = (result: { success: boolean; error?: { issues: readonly FormIssue[] } }) =>
  result.error?.issues ?? [];

describe('the form layer: a failed parse → each field’s message', () => {
  it('translates by the issue’s key, naming the field by the screen’s label', () => {
    const { errors, first } = fieldErrors(issues(userCreateSchema.safeParse({})), issueText(t));
    expect(first).toBe('name');
    expect(errors.name).toBe('Required: Name');
    expect(errors.firstname).toBe('Required: First name');
  });

  it('keeps each field’s first issue, in the schema’s order', () => {
    const { errors, first } = fieldErrors(
      issues(
        userCreateSchema.safeParse({
          name: 'N',
          firstname: 'F',
          email: 'nope',
          password: 'long enough password',
          title: 'T',
          contact: '0102030405',
          role: 'ROLE_USER',
          company_id: '7d3e2f53-5f3b-4c43-9d8e-8a0a5f0f7d11',
        }),
      ),
      issueText(t),
    );
    expect(first).toBe('email');
    expect(errors).toEqual({ email: 'Bad e-mail' });
  });

  it('falls back to the app’s wording, then to the schema’s French', () => {
    const tooLong = fieldErrors(
      issues(loginSchema.safeParse({ username: 'a@b.co', password: 'x'.repeat(300) })),
      issueText(t),
    );
    expect(tooLong.errors.password).toBe('At most 200 characters');
    const unknownKey = fieldErrors(
      issues(loginSchema.safeParse({ username: '', password: '' })),
      issueText(t, { errors: 'errors' }),
    );
    expect(unknownKey.errors.username).toBe("L'adresse email est requise.");
  });

  it('shows an issue without a key as it is', () => {
    const issue: FormIssue = { path: ['x'], message: 'Le serveur dit non.' };
    expect(fieldErrors([issue], issueText(t)).errors).toEqual({ x: 'Le serveur dit non.' });
  });

  it('says an issue the screen has no key for in the interface’s language, from the catalogue', () => {
    const english = fieldErrors(
      issues(loginSchema.safeParse({ username: '', password: 'x' })),
      issueText(t, { errors: 'errors' }, ENGLISH_MESSAGES),
    );
    expect(english.errors.username).toBe('The e-mail address is required.');
    const french = fieldErrors(
      issues(loginSchema.safeParse({ username: '', password: 'x' })),
      issueText(t, { errors: 'errors' }, FRENCH_MESSAGES),
    );
    expect(french.errors.username).toBe("L'adresse email est requise.");
  });

  it('moves an issue to the field that shows it', () => {
    const result = eventCreateSchema.safeParse({
      company_id: 'demo',
      name: 'N',
      location: 'L',
      address_name: 'A',
      date_event: '01/01/2030',
      time_event: 'HH:MM',
    });
    const { errors, first } = fieldErrors(issues(result), issueText(t), { time_event: 'hour' });
    expect(first).toBe('hour');
    expect(Object.keys(errors)).toEqual(['hour']);
  });

  it('quotes the limit that applies in a file’s message', () => {
    const file = { size: 3 * 1024 * 1024 };
    const result = visitorFormSchema.safeParse({
      company_id: 'demo',
      firstname: 'A',
      lastname: 'B',
      id_number: 'C',
      organisation_name: 'D',
      email: 'a@b.co',
      contact: '0102030405',
      request_date: '01/01/2030',
      request_time: '10:00',
      request_image: file,
    });
    const issue = issues(result)[0]!;
    expect(issue.params as IssueParams).toMatchObject({ key: 'fileTooLarge', mo: 2 });
    const text = issueText((_k, o) => `max ${String(o?.mo)} Mo`, {
      errors: 'form.errors',
      fields: 'form.fields',
    });
    expect(fieldErrors([issue], text).errors).toEqual({ request_image: 'max 2 Mo' });
  });

  it('adds the screen’s own checks after the schema’s, never over them', () => {
    const merged = mergeFieldErrors(
      { errors: { email: 'Bad e-mail' }, first: 'email' },
      { email: 'other', user_document: 'Required: Document', note: undefined },
    );
    expect(merged).toEqual({
      errors: { email: 'Bad e-mail', user_document: 'Required: Document' },
      first: 'email',
    });
    expect(mergeFieldErrors({ errors: {}, first: undefined }, { file: 'Too big' }).first).toBe(
      'file',
    );
  });
});
