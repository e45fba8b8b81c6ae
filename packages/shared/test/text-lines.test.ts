/**
 * Issue 26 §5: every single-line text field of every input schema refuses line breaks
 * and control characters, in the product's words and with the `controlChars` key the
 * screens translate; the fields written in a text area keep their line feeds and
 * refuse the other control characters. TAB is a C0 control character: refused in both.
 */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  ENGLISH_MESSAGES,
  FRENCH_MESSAGES,
  asOneLine,
  asTextLines,
  breaksTheLine,
  checkUndoSchema,
  companyCreateSchema,
  companyInlineUpdateSchema,
  companyUpdateSchema,
  createMemberFieldsSchema,
  createQrUserFieldsSchema,
  decisionBodySchema,
  eventCreateSchema,
  firstVisitorIssue,
  issueParams,
  requestCreateSchema,
  requestDeclineSchema,
  retentionSettingsSchemaFor,
  updateMemberSchema,
  updateQrUserSchema,
  userCreateSchema,
  userUpdateSchema,
  visitorFormSchema,
} from '../src';

/** What a single-line field refuses: CR, LF, NUL, BEL, TAB, DEL, C1 (NEL, CSI), U+2028. */
const REFUSED = {
  CR: '\r',
  LF: '\n',
  CRLF: '\r\n',
  NUL: '\u0000',
  BEL: '\u0007',
  TAB: '\t',
  ESC: '\u001b',
  DEL: '\u007f',
  NEL: '\u0085',
  CSI: '\u009b',
  LS: '\u2028',
};
/** What it keeps: accents, apostrophes, quotes, semicolons, emoji, non-Latin scripts. */
const KEPT = ['Koné-Aké', 'Société "Le Bon"; N°2', 'Zoë 🎉 👩🏽‍💻', 'Ελένη 李 محمد', 'Ébène, d’Ivoire'];

const visitor = {
  company_id: 'acme',
  firstname: 'Awa',
  lastname: 'Koné',
  id_number: 'CI-0042',
  organisation_name: 'Acme',
  email: 'awa@example.com',
  contact: '0701020304',
  address: 'Rue 12',
  city: 'Abidjan',
  country: 'CI',
  state: 'Lagunes',
  zipcode: '01 BP 1',
  host: 'M. Diallo',
  reason: 'Entretien',
  request_date: '24/11/2030',
  request_time: '10:30',
  privacy_accepted: 'true',
  request_image: { size: 10 },
};
const company = {
  name: 'Acme',
  id_number: 'CI-ABJ-2026-B-1',
  address: 'Rue 12',
  city: 'Abidjan',
  state: 'Lagunes',
  country: 'CI',
  zipcode: '01 BP 1',
  company_field: 'Industrie',
  point_contact: 'Awa Koné',
  title: 'Directrice',
  email: 'contact@acme.ci',
  phone_number: '0701020304',
  description: 'Une entreprise.',
};
const user = {
  name: 'Koné',
  firstname: 'Awa',
  email: 'awa@acme.ci',
  password: 'a long enough password',
  title: 'Accueil',
  contact: '0701020304',
  role: 'ROLE_USER',
  company_id: '0190a5a4-3b7e-7c1d-9f2e-0123456789ab',
};
const member = {
  firstname: 'Yao',
  lastname: 'Kouassi',
  contact: '0701020304',
  email: 'yao@acme.ci',
  title: 'Membre',
  company_id: '0190a5a4-3b7e-7c1d-9f2e-0123456789ab',
};
const event = {
  company_id: 'acme',
  name: 'Portes ouvertes',
  location: 'Salle A',
  address_name: 'Plateau',
  city: 'Abidjan',
  state: 'Lagunes',
  zipcode: '01 BP 1',
  date_event: '24/12/2030',
  time_event: '10:00',
};

/** Each schema with a valid payload and the single-line fields it takes from a person. */
const SINGLE_LINE: [string, z.ZodType, Record<string, unknown>, string[]][] = [
  [
    'the visitor form',
    visitorFormSchema,
    visitor,
    [
      'firstname',
      'lastname',
      'id_number',
      'organisation_name',
      'email',
      'address',
      'city',
      'state',
      'zipcode',
      'host',
      'reason',
    ],
  ],
  [
    'a new company',
    companyCreateSchema,
    company,
    [
      'name',
      'id_number',
      'address',
      'city',
      'state',
      'zipcode',
      'company_field',
      'point_contact',
      'title',
      'email',
    ],
  ],
  ['a company edited', companyUpdateSchema, company, ['address', 'point_contact', 'title']],
  ['a company renamed', companyInlineUpdateSchema, { name: 'Acme', description: 'D' }, ['name']],
  ['a new user', userCreateSchema, user, ['name', 'firstname', 'title', 'email']],
  ['a user edited', userUpdateSchema, user, ['name', 'firstname', 'title', 'email']],
  [
    'a permanent QR code',
    createQrUserFieldsSchema,
    member,
    ['firstname', 'lastname', 'title', 'email'],
  ],
  ['a member card', createMemberFieldsSchema, member, ['firstname', 'lastname', 'title', 'email']],
  [
    'a QR user edited',
    updateQrUserSchema,
    { firstname: 'Yao' },
    ['firstname', 'lastname', 'title'],
  ],
  ['a member edited', updateMemberSchema, { firstname: 'Yao' }, ['firstname', 'lastname', 'title']],
  [
    'an event',
    eventCreateSchema,
    event,
    ['name', 'location', 'address_name', 'city', 'state', 'zipcode'],
  ],
  [
    'a request',
    requestCreateSchema,
    { visitor_id: '0190a5a4-3b7e-7c1d-9f2e-0123456789ab' },
    ['host', 'reason'],
  ],
];

/** The fields written in a text area: several lines. */
const MULTI_LINE: [string, z.ZodType, Record<string, unknown>, string][] = [
  ['a company’s description', companyCreateSchema, company, 'description'],
  ['a company’s description (inline)', companyInlineUpdateSchema, { name: 'Acme' }, 'description'],
  ['a decline’s reason', requestDeclineSchema, {}, 'reason'],
  [
    'a decline’s reason (host link)',
    decisionBodySchema,
    { token: 't', decision: 'decline' },
    'reason',
  ],
  ['an undo’s reason', checkUndoSchema, {}, 'reason'],
  [
    'the privacy notice',
    retentionSettingsSchemaFor(365),
    { documents_days: 30, identity_days: 365, checks_days: 730, audit_days: 1095 },
    'privacy_notice',
  ],
];

const issueAt = (result: z.ZodSafeParseResult<unknown>, field: string) =>
  result.error?.issues.find((issue) => issue.path[0] === field);

describe('single-line fields refuse line breaks and control characters', () => {
  for (const [what, schema, valid, fields] of SINGLE_LINE) {
    it(`${what}: ${fields.join(', ')}`, () => {
      expect(schema.safeParse(valid).success).toBe(true);
      for (const field of fields) {
        const base = String(valid[field] ?? 'Texte');
        for (const [name, bad] of Object.entries(REFUSED)) {
          // Inside the value: the trim a field gets does not reach it.
          const sent = field === 'email' ? `awa${bad}x@example.com` : `${base}${bad}Bis`;
          const result = schema.safeParse({ ...valid, [field]: sent });
          const issue = issueAt(result, field);
          expect(issue, `${what}.${field} with ${name}`).toBeDefined();
          expect(issue!.message).toBe(FRENCH_MESSAGES.validation.controlChars);
          expect(issueParams(issue!)).toMatchObject({ key: 'controlChars' });
        }
      }
    });
  }

  it('keeps accents, quotes, semicolons, emoji and other scripts', () => {
    for (const [what, schema, valid, fields] of SINGLE_LINE) {
      for (const field of fields.filter((f) => f !== 'email' && f !== 'zipcode')) {
        for (const text of KEPT) {
          const result = schema.safeParse({ ...valid, [field]: text });
          expect(issueAt(result, field), `${what}.${field}: ${text}`).toBeUndefined();
        }
      }
    }
  });

  it('drops a line break at either end with the surrounding spaces (trimmed, not refused)', () => {
    const result = visitorFormSchema.safeParse({ ...visitor, firstname: '\r\n Awa \n' });
    expect(result.success && result.data.firstname).toBe('Awa');
  });

  it('the visitor form names the field and the key its screen translates', () => {
    const result = visitorFormSchema.safeParse({ ...visitor, lastname: 'Koné\nBcc: x@y.z' });
    expect(result.success).toBe(false);
    expect(firstVisitorIssue(result.error!)).toEqual({
      path: 'lastname',
      message: 'Ce champ ne peut pas contenir de retour à la ligne ni de caractère de contrôle.',
      key: 'controlChars',
      field: undefined,
    });
  });
});

describe('fields written on several lines keep line feeds only', () => {
  for (const [what, schema, valid, field] of MULTI_LINE) {
    it(what, () => {
      // A text area's lines come as CRLF through a multipart form: stored as LF.
      const kept = schema.safeParse({ ...valid, [field]: 'Ligne 1\r\nLigne 2\rLigne 3\nFin' });
      expect(kept.success).toBe(true);
      expect((kept.data as Record<string, unknown>)[field]).toBe('Ligne 1\nLigne 2\nLigne 3\nFin');
      for (const [name, bad] of Object.entries({
        NUL: '\u0000',
        TAB: '\t',
        BEL: '\u0007',
        NEL: '\u0085',
        CSI: '\u009b',
      })) {
        const result = schema.safeParse({ ...valid, [field]: `Ligne 1${bad}Ligne 2` });
        const issue = issueAt(result, field);
        expect(issue, `${what} with ${name}`).toBeDefined();
        expect(issue!.message).toBe(FRENCH_MESSAGES.validation.controlCharsInText);
        expect(issueParams(issue!)).toMatchObject({ key: 'controlCharsInText' });
      }
    });
  }
});

describe('the messages', () => {
  it('say it in French and in English', () => {
    expect(FRENCH_MESSAGES.validation.controlChars).toBe(
      'Ce champ ne peut pas contenir de retour à la ligne ni de caractère de contrôle.',
    );
    expect(ENGLISH_MESSAGES.validation.controlChars).toBe(
      'This field cannot contain a line break or a control character.',
    );
    expect(ENGLISH_MESSAGES.validation.controlCharsInText).toMatch(/control character/);
  });
});

describe('stored values written into a mail or an invitation', () => {
  it('asOneLine: each run of line breaks and control characters becomes one space', () => {
    expect(asOneLine('Awa\r\nBcc: x@y.z')).toBe('Awa Bcc: x@y.z');
    expect(asOneLine('A\u0000\u0085\u009b\tB\u2028C')).toBe('A B C');
    expect(asOneLine('Société "Le Bon" 🎉')).toBe('Société "Le Bon" 🎉');
    expect(breaksTheLine(asOneLine('x\ny\u0007z'))).toBe(false);
  });

  it('asTextLines: line feeds kept (CRLF and CR become LF), other controls a space', () => {
    expect(asTextLines('Un\r\nDeux\rTrois\tQuatre\u0000')).toBe('Un\nDeux\nTrois Quatre ');
  });
});
