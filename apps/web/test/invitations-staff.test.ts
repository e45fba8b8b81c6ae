/**
 * The invitation screens' plain logic (issue 30): the form's input for the shared schema, its
 * messages under each visitor's field, the weekly rule written and said, the days a recurring
 * invitation may still lose, the CSV template and its refused lines, "Inviter à nouveau".
 */
import { describe, expect, it } from 'vitest';
import { invitationInputSchema, readRule, type InvitedVisit } from '@sesame/shared';
import frWords from '../src/locales/fr/invitations.json';
import enWords from '../src/locales/en/invitations.json';
import {
  againValues,
  cancellableDays,
  csvColumns,
  csvErrorLine,
  csvTemplateFile,
  dayInWords,
  emptyVisitor,
  inviteInput,
  preselectedSite,
  ruleSentence,
  scheduleFields,
  scheduleProblems,
  scheduleValues,
  shownDay,
  weekdayName,
  withDottedPaths,
  type InviteValues,
  type Say,
} from '../src/features/invitations/lib/invitations';
import { Translator } from '../src/lib/translator';

const SITE = '7f0c1d2e-3a4b-4c5d-8e6f-0a1b2c3d4e5f';

/** The screen's words, as `useTranslation('invitations')` reads them. */
function sayIn(lang: 'fr' | 'en'): Say {
  const translator = new Translator({
    language: lang,
    fallbackLanguage: 'fr',
    defaultNamespace: 'invitations',
    load: () => Promise.resolve({}),
  });
  translator.add('fr', 'invitations', frWords);
  translator.add('en', 'invitations', enWords);
  const t = translator.fixedT(['invitations']);
  return (key, options) => t(key, options);
}

function values(overrides: Partial<InviteValues> = {}): InviteValues {
  return {
    ...scheduleValues(SITE),
    date: '02/07/2027',
    hour: '09',
    minute: '30',
    end_hour: '11',
    end_minute: '00',
    reason: 'Réunion projet',
    visitors: [
      { ...emptyVisitor(), firstname: 'Awa', lastname: 'Koné', email: 'Awa.Kone@Example.com' },
    ],
    ...overrides,
  };
}

const visit: InvitedVisit = {
  request_id: 'r1',
  invitation_id: 'i1',
  visitor_id: 'v1',
  firstname: 'Awa',
  lastname: 'Koné',
  email: 'awa.kone@example.com',
  phone: '+2250707070707',
  organisation: 'Orange CI',
  code: 'ABCD-EFGH-IJKL',
  site: { id: SITE, name: 'Siège', timezone: 'Africa/Abidjan' },
  host: { id: 'u1', name: 'Jean Dupont' },
  reason: 'Réunion projet',
  language: 'en',
  date: '05/07/2027',
  time: '09:30',
  end_time: '11:00',
  rrule: 'FREQ=WEEKLY;BYDAY=MO,TH;UNTIL=20270830',
  next_day: '2027-07-08',
  days: [
    { day: '2027-07-05', cancelled: false },
    { day: '2027-07-08', cancelled: true },
    { day: '2027-07-12', cancelled: false },
    { day: '2027-07-15', cancelled: false },
  ],
  group_size: 3,
  state: 'invited',
  here_at: null,
  created_at: '2027-06-01T10:00:00.000Z',
};

describe('the invite form and the shared schema', () => {
  it('sends the times joined, no rule when it does not repeat, each visitor without its key', () => {
    const parsed = invitationInputSchema.safeParse(inviteInput(values()));
    expect(parsed.success).toBe(true);
    expect(parsed.data).toMatchObject({
      site_id: SITE,
      date: '02/07/2027',
      time: '09:30',
      end_time: '11:00',
      language: 'fr',
      rrule: null,
      visitors: [
        {
          firstname: 'Awa',
          lastname: 'Koné',
          email: 'awa.kone@example.com',
          phone: '',
          organisation: '',
        },
      ],
    });
    expect(Object.keys(parsed.data!.visitors[0]!)).not.toContain('key');
  });

  it('writes the weekly rule the shared reader reads back, days in the week’s order', () => {
    const input = inviteInput(values({ repeat: true, days: ['TH', 'MO'], until: '30/06/2028' }));
    expect(input.rrule).toBe('FREQ=WEEKLY;BYDAY=MO,TH;UNTIL=20280630');
    expect(readRule(input.rrule!)).toMatchObject({ byDay: ['MO', 'TH'], until: '2028-06-30' });
  });

  it('names each visitor’s field by its whole path, as the server’s errors map does', () => {
    const schema = withDottedPaths(invitationInputSchema);
    const parsed = schema.safeParse(
      inviteInput(
        values({
          hour: 'HH',
          visitors: [
            { ...emptyVisitor(), firstname: 'Awa', lastname: 'Koné', email: 'a@b.ci' },
            { ...emptyVisitor(), firstname: '', lastname: 'Traoré', email: 'pas-un-email' },
          ],
        }),
      ),
    );
    expect(parsed.success).toBe(false);
    const paths = parsed.success ? [] : parsed.error.issues.map((issue) => issue.path);
    expect(paths).toEqual(
      expect.arrayContaining([['time'], ['visitors.1.firstname'], ['visitors.1.email']]),
    );
    expect(paths.every((path) => path.length === 1)).toBe(true);
  });

  it('refuses a visitor with neither e-mail nor phone under the e-mail field', () => {
    const parsed = withDottedPaths(invitationInputSchema).safeParse(
      inviteInput(values({ visitors: [{ ...emptyVisitor(), firstname: 'A', lastname: 'B' }] })),
    );
    expect(parsed.success ? [] : parsed.error.issues.map((i) => i.path[0])).toContain(
      'visitors.0.email',
    );
  });

  it('says a past day, an end of the rule missing or before the first day', () => {
    expect(
      scheduleProblems({ date: '01/07/2027', repeat: false, until: '' }, '2027-07-02'),
    ).toEqual({ date: 'datePast' });
    expect(scheduleProblems({ date: '02/07/2027', repeat: true, until: '' }, '2027-07-02')).toEqual(
      {
        until: 'untilInvalid',
      },
    );
    expect(
      scheduleProblems({ date: '02/07/2027', repeat: true, until: '01/07/2027' }, '2027-07-01'),
    ).toEqual({ until: 'untilBeforeDate' });
    expect(
      scheduleProblems({ date: '02/07/2027', repeat: true, until: '30/06/2028' }, '2027-07-01'),
    ).toEqual({});
    // An invitation under way keeps its first day, past as it is; another past day is refused.
    const underWay = { date: '01/07/2027', repeat: true, until: '30/06/2028' };
    expect(scheduleProblems(underWay, '2027-07-08', '01/07/2027')).toEqual({});
    expect(
      scheduleProblems({ ...underWay, date: '02/07/2027' }, '2027-07-08', '01/07/2027'),
    ).toEqual({
      date: 'datePast',
    });
  });

  it('gives the import its fields as text, a blank rule when none', () => {
    expect(scheduleFields(values())).toEqual({
      site_id: SITE,
      date: '02/07/2027',
      time: '09:30',
      end_time: '11:00',
      reason: 'Réunion projet',
      language: 'fr',
      rrule: '',
    });
  });

  it('preselects the home site among the active ones, else the only one, else none', () => {
    const sites = [{ id: 'a' }, { id: 'b' }];
    expect(preselectedSite(sites, 'b')).toBe('b');
    expect(preselectedSite(sites, 'archived')).toBe('');
    expect(preselectedSite([{ id: 'a' }], null)).toBe('a');
  });
});

describe('a rule in words', () => {
  it('in French and in English, the weekdays from Intl', () => {
    expect(ruleSentence('FREQ=WEEKLY;BYDAY=MO,TH;UNTIL=20270630', 'fr', sayIn('fr'))).toBe(
      "Tous les lundis et jeudis jusqu'au 30/06/2027",
    );
    expect(ruleSentence('FREQ=WEEKLY;BYDAY=MO,TH;UNTIL=20270630', 'en', sayIn('en'))).toBe(
      'Every Monday and Thursday until 30/06/2027',
    );
    expect(ruleSentence('FREQ=WEEKLY;BYDAY=MO,WE,FR;UNTIL=20270630', 'fr', sayIn('fr'))).toBe(
      "Tous les lundis, mercredis et vendredis jusqu'au 30/06/2027",
    );
  });

  it('a daily rule, a count, an interval', () => {
    expect(ruleSentence('FREQ=DAILY;COUNT=5', 'fr', sayIn('fr'))).toBe('Tous les jours (5 fois)');
    expect(ruleSentence('FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;COUNT=3', 'en', sayIn('en'))).toBe(
      'Every 2 weeks, on Tuesday (3 times)',
    );
    expect(ruleSentence('not a rule', 'fr', sayIn('fr'))).toBe('');
  });

  it('names the weekdays short for the boxes, long for their names', () => {
    expect(weekdayName('MO', 'fr', 'short')).toBe('Lun');
    expect(weekdayName('SU', 'fr', 'short')).toBe('Dim');
    expect(weekdayName('MO', 'en', 'short')).toBe('Mon');
    expect(weekdayName('TH', 'fr', 'long')).toBe('jeudi');
    expect(dayInWords('2027-06-30', 'fr')).toBe('mercredi 30 juin 2027');
    expect(dayInWords('2027-06-30', 'en')).toBe('Wednesday, 30 June 2027');
  });
});

describe('Mes visiteurs', () => {
  it('offers the days not cancelled from today on', () => {
    expect(cancellableDays(visit, '2027-07-06')).toEqual(['2027-07-12', '2027-07-15']);
    expect(cancellableDays(visit, '2027-07-05')).toEqual([
      '2027-07-05',
      '2027-07-12',
      '2027-07-15',
    ]);
  });

  it('says the next day, else the last day still standing', () => {
    expect(shownDay(visit)).toBe('2027-07-08');
    expect(shownDay({ ...visit, next_day: null })).toBe('2027-07-15');
    expect(shownDay({ ...visit, next_day: null, days: [] })).toBe('2027-07-05');
  });

  it('invites again: the visitor and the meeting, a new day to choose', () => {
    const again = againValues(visit, [{ id: SITE }]);
    expect(again).toMatchObject({
      site_id: SITE,
      date: '',
      hour: '09',
      minute: '30',
      end_hour: '11',
      end_minute: '00',
      reason: 'Réunion projet',
      language: 'en',
      repeat: false,
    });
    expect(again.visitors).toEqual([
      expect.objectContaining({
        firstname: 'Awa',
        lastname: 'Koné',
        email: 'awa.kone@example.com',
        phone: '+2250707070707',
        organisation: 'Orange CI',
      }),
    ]);
    expect(againValues(visit, [{ id: 'other' }], 'other').site_id).toBe('other');
  });

  it('edits with the invitation’s own rule read back into the form', () => {
    expect(scheduleValues(SITE, visit)).toMatchObject({
      date: '05/07/2027',
      repeat: true,
      days: ['MO', 'TH'],
      until: '30/08/2027',
    });
  });
});

describe('a rule the form cannot write', () => {
  it('is kept as it is on an edit, unless the weekly repetition replaces it', () => {
    const daily = { ...visit, rrule: 'FREQ=DAILY;COUNT=3' };
    const values = scheduleValues(SITE, daily);
    expect(values).toMatchObject({ repeat: false, kept_rule: 'FREQ=DAILY;COUNT=3' });
    expect(scheduleFields(values).rrule).toBe('FREQ=DAILY;COUNT=3');
    expect(
      scheduleFields({ ...values, repeat: true, days: ['FR'], until: '30/08/2027' }).rrule,
    ).toBe('FREQ=WEEKLY;BYDAY=FR;UNTIL=20270830');
    expect(scheduleFields({ ...values, kept_rule: null }).rrule).toBe('');
    expect(againValues(daily, [{ id: SITE }]).kept_rule).toBeNull();
  });
});

describe('the CSV', () => {
  it('downloads the template with its BOM under the language’s name', () => {
    const fr = csvTemplateFile('fr');
    expect(fr.name).toBe('modele-invitations.csv');
    expect(fr.text.startsWith('\uFEFFPrénom;Nom;E-mail;Téléphone;Organisation\r\n')).toBe(true);
    expect(csvTemplateFile('en').name).toBe('invitation-template.csv');
    expect(csvColumns('en')).toEqual(['First name', 'Last name', 'Email', 'Phone', 'Organisation']);
  });

  it('says each refused line with its column in the screen’s language', () => {
    const error = { line: 12, field: 'email', message: 'Adresse e-mail invalide.' };
    expect(csvErrorLine(error, 'fr', sayIn('fr'))).toBe(
      'Ligne 12 — E-mail : Adresse e-mail invalide.',
    );
    expect(csvErrorLine(error, 'en', sayIn('en'))).toBe(
      'Line 12 — Email: Adresse e-mail invalide.',
    );
    expect(
      csvErrorLine({ line: 3, field: null, message: 'Trop de colonnes.' }, 'fr', sayIn('fr')),
    ).toBe('Ligne 3 — Trop de colonnes.');
  });
});
