import { describe, expect, it } from 'vitest';
import {
  API_MESSAGES,
  ID_FILE_MAX_BYTES,
  UPLOAD_MAX_BYTES,
  eventCreateSchema,
  expiryFormSchema,
  fileTooLargeMessage,
  issueParams,
  loginSchema,
  tooLongMessage,
  userCreateSchema,
} from '../src';

const firstIssue = (result: { success: boolean; error?: { issues: unknown[] } }) =>
  result.error?.issues[0] as { message: string; params?: unknown; path: unknown[] };

describe('issues carry a locale key beside the French message', () => {
  it('names the required field and keeps the spec wording', () => {
    const issue = firstIssue(userCreateSchema.safeParse({}));
    expect(issue.message).toBe('Le champ "Nom" est requis.');
    expect(issueParams(issue)).toEqual({ key: 'required', field: 'name' });
  });

  it('keys built-in checks (regex, uuid, min) and the login messages', () => {
    const base = {
      name: 'N',
      firstname: 'F',
      email: 'not-an-email',
      password: 'short',
      title: 'T',
      contact: '0102030405',
      role: 'ROLE_USER',
      company_id: 'nope',
    };
    const issues = userCreateSchema.safeParse(base).error!.issues;
    expect(issues.map((i) => issueParams(i)?.key)).toEqual([
      'emailInvalid',
      'passwordTooShort',
      'companyInvalid',
    ]);
    const login = firstIssue(loginSchema.safeParse({ username: '', password: 'x' }));
    expect(login.message).toBe("L'adresse email est requise.");
    expect(issueParams(login)?.key).toBe('emailRequired');
  });

  it('keys custom issues and refinements', () => {
    const event = firstIssue(eventCreateSchema.safeParse({}));
    expect(issueParams(event)).toEqual({ key: 'required', field: 'company_id' });
    const expiry = firstIssue(expiryFormSchema.safeParse({ dateExp: '2026-02-30' }));
    expect(expiry.message).toBe('Date invalide');
    expect(issueParams(expiry)?.key).toBe('dateInvalid');
  });

  it('says how long a text may be, with the number', () => {
    const issue = firstIssue(
      loginSchema.safeParse({ username: 'a@b.co', password: 'x'.repeat(201) }),
    );
    expect(issue.message).toBe(tooLongMessage(200));
    expect(issueParams(issue)).toEqual({ key: 'tooLong', max: 200 });
  });
});

describe('file size messages come from the limit that applies', () => {
  it('2 Mo for identity documents, 5 Mo for other uploads', () => {
    expect(API_MESSAGES.fileTooLarge).toBe('La taille du fichier ne doit pas dépasser 2 Mo.');
    expect(fileTooLargeMessage(ID_FILE_MAX_BYTES)).toBe(API_MESSAGES.fileTooLarge);
    expect(fileTooLargeMessage(UPLOAD_MAX_BYTES)).toBe(
      'La taille du fichier ne doit pas dépasser 5 Mo.',
    );
  });
});
