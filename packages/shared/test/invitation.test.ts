/**
 * Issue 30: what an invitation's schemas read — the RRULE Sésame runs (a daily or weekly
 * rule that ends), the rule the invite screen writes, one invited visitor, and the
 * invitation's times.
 */
import { describe, expect, it } from 'vitest';
import {
  FRENCH_MESSAGES,
  invitationInputSchema,
  invitationScheduleSchema,
  invitedVisitorSchema,
  issueParams,
  readRule,
  weeklyRule,
} from '../src';

describe('readRule', () => {
  it('reads a weekly rule until a day', () => {
    expect(readRule('FREQ=WEEKLY;BYDAY=MO,TH;UNTIL=20270630')).toEqual({
      freq: 'WEEKLY',
      interval: 1,
      byDay: ['MO', 'TH'],
      until: '2027-06-30',
      count: null,
    });
  });

  it('reads COUNT, INTERVAL, a UTC date-time UNTIL, an "RRULE:" prefix and any case', () => {
    expect(readRule('FREQ=DAILY;COUNT=5')).toEqual({
      freq: 'DAILY',
      interval: 1,
      byDay: [],
      until: null,
      count: 5,
    });
    expect(readRule('FREQ=WEEKLY;INTERVAL=2;BYDAY=FR;COUNT=3')).toMatchObject({
      interval: 2,
      byDay: ['FR'],
      count: 3,
    });
    expect(readRule('RRULE:FREQ=WEEKLY;BYDAY=TU;UNTIL=20270630T235959Z')).toMatchObject({
      freq: 'WEEKLY',
      until: '2027-06-30',
    });
    expect(readRule('  rrule:freq=weekly;byday=mo;until=20270105;wkst=MO ')).toMatchObject({
      freq: 'WEEKLY',
      byDay: ['MO'],
      until: '2027-01-05',
    });
  });

  it.each([
    ['no end', 'FREQ=WEEKLY;BYDAY=MO'],
    ['both UNTIL and COUNT', 'FREQ=WEEKLY;BYDAY=MO;UNTIL=20270630;COUNT=4'],
    ['a monthly rule', 'FREQ=MONTHLY;COUNT=3'],
    ['a yearly rule', 'FREQ=YEARLY;COUNT=3'],
    ['no FREQ', 'BYDAY=MO;COUNT=3'],
    ['a numbered weekday', 'FREQ=WEEKLY;BYDAY=1MO;COUNT=3'],
    ['an unknown weekday', 'FREQ=WEEKLY;BYDAY=XX;COUNT=3'],
    ['a day that does not exist', 'FREQ=WEEKLY;BYDAY=MO;UNTIL=20270231'],
    ['a month that does not exist', 'FREQ=WEEKLY;BYDAY=MO;UNTIL=20271301'],
    ['a short date', 'FREQ=WEEKLY;BYDAY=MO;UNTIL=2027063'],
    ['a local date-time', 'FREQ=WEEKLY;BYDAY=MO;UNTIL=20270630T120000'],
    ['a key twice', 'FREQ=WEEKLY;FREQ=DAILY;COUNT=3'],
    ['a key twice in another case', 'FREQ=WEEKLY;count=2;COUNT=3'],
    ['COUNT 0', 'FREQ=DAILY;COUNT=0'],
    ['COUNT not a number', 'FREQ=DAILY;COUNT=two'],
    ['INTERVAL 0', 'FREQ=DAILY;INTERVAL=0;COUNT=3'],
    ['INTERVAL over 52', 'FREQ=DAILY;INTERVAL=53;COUNT=3'],
    ['a part the product does not run', 'FREQ=WEEKLY;BYMONTH=6;COUNT=3'],
    ['a part without a value', 'FREQ=WEEKLY;BYDAY;COUNT=3'],
    ['a part with two "="', 'FREQ=WEEKLY;COUNT=3=4'],
    ['an empty part', 'FREQ=WEEKLY;;COUNT=3'],
    ['nothing', ''],
  ])('refuses %s', (_name, rule) => {
    expect(readRule(rule)).toBeNull();
  });
});

describe('weeklyRule', () => {
  it('writes the days in the week’s order and the last day as UNTIL', () => {
    expect(weeklyRule(['TH', 'MO'], '30/06/2027')).toBe('FREQ=WEEKLY;BYDAY=MO,TH;UNTIL=20270630');
    expect(weeklyRule(['SU', 'FR', 'WE', 'MO'], '05/01/2027')).toBe(
      'FREQ=WEEKLY;BYDAY=MO,WE,FR,SU;UNTIL=20270105',
    );
  });

  it('writes a rule readRule reads back', () => {
    expect(readRule(weeklyRule(['TH', 'MO'], '30/06/2027'))).toMatchObject({
      byDay: ['MO', 'TH'],
      until: '2027-06-30',
    });
  });
});

describe('invitedVisitorSchema', () => {
  const visitor = {
    firstname: 'Awa',
    lastname: 'Koné',
    email: 'awa@example.com',
    phone: '',
    organisation: '',
  };
  /** The issues of a visitor, as field → [message, key]. */
  const issuesOf = (input: Record<string, unknown>) => {
    const result = invitedVisitorSchema.safeParse(input);
    expect(result.success).toBe(false);
    return Object.fromEntries(
      result.error!.issues.map((issue) => [
        issue.path.join('.'),
        [issue.message, issueParams(issue)?.key],
      ]),
    );
  };

  it('keeps a visitor, trimmed, with the e-mail in lower case', () => {
    expect(
      invitedVisitorSchema.parse({
        firstname: ' Awa ',
        lastname: 'Koné',
        email: ' Awa.Kone@Example.COM ',
        organisation: 'Orange CI',
      }),
    ).toEqual({
      firstname: 'Awa',
      lastname: 'Koné',
      email: 'awa.kone@example.com',
      phone: '',
      organisation: 'Orange CI',
    });
  });

  it('takes a phone without an e-mail', () => {
    expect(
      invitedVisitorSchema.parse({
        firstname: 'Yao',
        lastname: 'Kouassi',
        phone: '07 07 07 07 07',
      }),
    ).toMatchObject({ email: '', phone: '07 07 07 07 07' });
  });

  it('names each field missing or wrong, in the product’s words', () => {
    expect(issuesOf({ ...visitor, firstname: '', lastname: ' ' })).toEqual({
      firstname: [FRENCH_MESSAGES.invitation.required('firstname'), 'required'],
      lastname: [FRENCH_MESSAGES.invitation.required('lastname'), 'required'],
    });
    expect(issuesOf({ ...visitor, email: '', phone: '' })).toEqual({
      email: [FRENCH_MESSAGES.invitation.contactRequired, 'contactRequired'],
    });
    expect(issuesOf({ ...visitor, email: 'awa@' })).toEqual({
      email: [FRENCH_MESSAGES.visitor.emailInvalid, 'emailInvalid'],
    });
    expect(issuesOf({ ...visitor, phone: 'call me' })).toEqual({
      phone: [FRENCH_MESSAGES.validation.phoneInvalid, 'phoneInvalid'],
    });
  });

  it('refuses a name on two lines', () => {
    expect(invitedVisitorSchema.safeParse({ ...visitor, firstname: 'A\nB' }).success).toBe(false);
  });
});

describe('invitationInputSchema', () => {
  const input = {
    site_id: '0190a8f2-6b1c-7d3e-8f4a-5b6c7d8e9f01',
    date: '04/03/2030',
    time: '09:00',
    end_time: '10:00',
    visitors: [{ firstname: 'Awa', lastname: 'Koné', email: 'awa@example.com' }],
  };
  const fieldsOf = (body: Record<string, unknown>) => {
    const result = invitationInputSchema.safeParse(body);
    expect(result.success).toBe(false);
    return result.error!.issues.map((issue) => issue.path.join('.'));
  };

  it('takes an invitation, French by default, without a rule', () => {
    const parsed = invitationInputSchema.parse(input);
    expect(parsed).toMatchObject({ language: 'fr', reason: '' });
    expect(parsed.rrule ?? null).toBeNull();
    expect(invitationInputSchema.parse({ ...input, rrule: ' ', language: 'en' })).toMatchObject({
      language: 'en',
      rrule: null,
    });
  });

  it('needs the end time after the start', () => {
    expect(fieldsOf({ ...input, end_time: '09:00' })).toEqual(['end_time']);
    expect(fieldsOf({ ...input, end_time: '08:30' })).toEqual(['end_time']);
    const issue = invitationInputSchema.safeParse({ ...input, end_time: '08:30' }).error!
      .issues[0]!;
    expect(issue.message).toBe(FRENCH_MESSAGES.invitation.endBeforeStart);
    expect(invitationScheduleSchema.safeParse({ ...input, end_time: '08:30' }).success).toBe(false);
  });

  it('refuses a time that is no hour and minute, an unknown language, a rule it cannot run', () => {
    expect(fieldsOf({ ...input, time: '9:00' })).toContain('time');
    expect(fieldsOf({ ...input, language: 'de' })).toEqual(['language']);
    expect(fieldsOf({ ...input, rrule: 'FREQ=WEEKLY;BYDAY=MO' })).toEqual(['rrule']);
    expect(fieldsOf({ ...input, date: '31/02/2030' })).toEqual(['date']);
  });

  it('needs one visitor, and a thousand at most', () => {
    expect(fieldsOf({ ...input, visitors: [] })).toEqual(['visitors']);
    const many = Array.from({ length: 1001 }, (_, i) => ({
      firstname: 'V',
      lastname: `N${i}`,
      email: `v${i}@example.com`,
    }));
    expect(fieldsOf({ ...input, visitors: many })).toEqual(['visitors']);
    expect(
      invitationInputSchema.safeParse({ ...input, visitors: many.slice(0, 1000) }).success,
    ).toBe(true);
  });

  it('names a bad visitor by its place in the list', () => {
    expect(
      fieldsOf({ ...input, visitors: [...input.visitors, { firstname: 'Yao', lastname: 'K' }] }),
    ).toEqual(['visitors.1.email']);
  });
});
