/**
 * Issue 27: one phone rule for every phone field. A staff member's, a card holder's and a
 * company's number are read as the visitor's is: written as people write it, checked for
 * its shape by the form, read by libphonenumber into E.164 on the server (a number without
 * a country code is a number of Côte d'Ivoire), with one message in each language.
 */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  ENGLISH_MESSAGES,
  FRENCH_MESSAGES,
  companyCreateSchema,
  companyUpdateSchema,
  createMemberFieldsSchema,
  createQrUserFieldsSchema,
  issueParams,
  updateMemberSchema,
  updateQrUserSchema,
  userCreateSchema,
  userUpdateSchema,
  visitorFormSchema,
} from '../src';
import { readPhones, toE164 } from '../src/phone';

const COMPANY_ID = '0190a8f2-6b1c-7d3e-8f4a-5b6c7d8e9f01';
const PHONE_INVALID: string = FRENCH_MESSAGES.validation.phoneInvalid;

const company = {
  id_number: 'RC-0001',
  address: 'Rue 1',
  city: 'Abidjan',
  state: 'Lagunes',
  country: 'CI',
  zipcode: '00225',
  company_field: 'Services',
  point_contact: 'Awa Koné',
  title: 'Directrice',
  email: 'contact@example.com',
};
const card = { firstname: 'Yao', lastname: 'Kouassi', email: 'yao@example.com', title: 'Agent' };

/** Every phone field of a shared schema, with a body that is valid but for it. */
const PHONE_FIELDS: {
  name: string;
  schema: z.ZodType<Record<string, unknown>>;
  field: string;
  body: Record<string, unknown>;
}[] = [
  {
    name: 'user creation',
    schema: userCreateSchema,
    field: 'contact',
    body: {
      name: 'Koné',
      firstname: 'Awa',
      email: 'awa.kone@example.com',
      password: 'Un-mot-de-passe-solide-42',
      title: 'Accueil',
      role: 'ROLE_USER',
      company_id: COMPANY_ID,
    },
  },
  {
    name: 'user update',
    schema: userUpdateSchema,
    field: 'contact',
    body: {
      name: 'Koné',
      firstname: 'Awa',
      email: 'awa.kone@example.com',
      role: 'ROLE_USER',
      company_id: COMPANY_ID,
    },
  },
  { name: 'QR code creation', schema: createQrUserFieldsSchema, field: 'contact', body: {} },
  {
    name: 'member card creation',
    schema: createMemberFieldsSchema,
    field: 'contact',
    body: { ...card, company_id: COMPANY_ID },
  },
  { name: 'QR user update', schema: updateQrUserSchema, field: 'contact', body: card },
  { name: 'member card update', schema: updateMemberSchema, field: 'contact', body: card },
  {
    name: 'company creation',
    schema: companyCreateSchema,
    field: 'phone_number',
    body: { ...company, name: 'Acme' },
  },
  { name: 'company edit', schema: companyUpdateSchema, field: 'phone_number', body: company },
];

/** The same number as a front desk types it: international, packed, or as dialled in Côte d'Ivoire. */
const IVORIAN = ['+225 07 07 07 07 07', '+2250707070707', '07 07 07 07 07', '07.07.07.07.07'];
const GARBAGE = [
  '07 07 07 07 0A',
  'appelez-moi',
  '+',
  '12',
  '1234567890123456',
  '07 07 07 07 07 ext',
];

const issuesOf = (result: { success: boolean; error?: { issues: unknown[] } }) =>
  (result.error?.issues ?? []) as { path: PropertyKey[]; message: string }[];

describe('toE164: the one reading of a phone number', () => {
  it("reads a number as written, in Côte d'Ivoire when it has no country code", () => {
    for (const typed of IVORIAN) expect(toE164(typed), typed).toBe('+2250707070707');
    expect(toE164('00 33 6 12 34 56 78')).toBe('+33612345678');
    expect(toE164('+1 (415) 555-2671')).toBe('+14155552671');
  });

  it('refuses what is no possible number', () => {
    for (const typed of GARBAGE) expect(toE164(typed), typed).toBeNull();
    // The shape of a number, but not one of Côte d'Ivoire's ten digits, nor a whole one.
    expect(toE164('12345678')).toBeNull();
    expect(toE164('+225 07 07 07 07')).toBeNull();
  });
});

describe.each(PHONE_FIELDS)('the phone of $name', ({ schema, field, body }) => {
  it('accepts a number as a front desk types it, and the server stores it in E.164', () => {
    const read = readPhones(schema, field);
    for (const typed of IVORIAN) {
      const screen = schema.safeParse({ ...body, [field]: typed });
      expect(issuesOf(screen), typed).toEqual([]);
      const server = read.safeParse({ ...body, [field]: typed });
      expect(server.success, typed).toBe(true);
      expect(server.data?.[field], typed).toBe('+2250707070707');
    }
    expect(read.parse({ ...body, [field]: '00 33 6 12 34 56 78' })[field]).toBe('+33612345678');
  });

  it('refuses garbage under the field, with the one phone message and its key', () => {
    for (const typed of GARBAGE) {
      const issues = issuesOf(schema.safeParse({ ...body, [field]: typed }));
      expect(issues, typed).toHaveLength(1);
      expect(issues[0]!.path, typed).toEqual([field]);
      expect(issues[0]!.message, typed).toBe(PHONE_INVALID);
      expect(issueParams(issues[0]!), typed).toEqual({ key: 'phoneInvalid' });
    }
  });

  it('refuses on the server a number shaped like one that libphonenumber says is none', () => {
    const read = readPhones(schema, field);
    for (const typed of ['12345678', '+225 07 07 07 07']) {
      // The form lets it through (its shape), the server does not (the number).
      expect(schema.safeParse({ ...body, [field]: typed }).success, typed).toBe(true);
      const issues = issuesOf(read.safeParse({ ...body, [field]: typed }));
      expect(
        issues.map((i) => [i.path, i.message]),
        typed,
      ).toEqual([[[field], PHONE_INVALID]]);
      expect(issueParams(issues[0]!)).toEqual({ key: 'phoneInvalid' });
    }
  });
});

describe('the visitor form follows the same rule', () => {
  it('accepts the same numbers and refuses garbage with the same message', () => {
    const contactIssues = (contact: string) =>
      issuesOf(visitorFormSchema.safeParse({ contact })).filter((i) => i.path[0] === 'contact');
    for (const typed of IVORIAN) expect(contactIssues(typed), typed).toEqual([]);
    for (const typed of GARBAGE) {
      expect(
        contactIssues(typed).map((i) => i.message),
        typed,
      ).toEqual([PHONE_INVALID]);
    }
  });
});

describe('an optional phone stays optional', () => {
  it('a blank phone on a user edit or a QR code is no number to read', () => {
    const user = PHONE_FIELDS.find((f) => f.name === 'user update')!;
    const edited = readPhones(userUpdateSchema, 'contact').parse({ ...user.body, contact: ' ' });
    expect(edited.contact).toBeUndefined();
    expect(readPhones(createQrUserFieldsSchema, 'contact').parse({}).contact).toBeUndefined();
  });
});

describe('one message, said the same in both languages', () => {
  it('names no digit count, which the rule is not', () => {
    expect(FRENCH_MESSAGES.validation.phoneInvalid).not.toMatch(/chiffres/);
    expect(ENGLISH_MESSAGES.validation.phoneInvalid).not.toMatch(/digits/);
    expect(FRENCH_MESSAGES.validation.phoneInvalid).toContain('+33 6 12 34 56 78');
    expect(ENGLISH_MESSAGES.validation.phoneInvalid).toContain('+33 6 12 34 56 78');
  });
});
