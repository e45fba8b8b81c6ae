/**
 * The invitation screens' plain logic (issue 30): the invite form's values and the shared
 * schema's input, a weekly rule as the form writes it and as a sentence, the days a recurring
 * invitation may still lose, the CSV template and its refused lines as said, "invite again".
 * No React, no DOM: `apps/web/test/invitations-staff.test.ts`.
 */
import {
  HOUR_PLACEHOLDER,
  INVITATION_CSV_COLUMNS,
  MINUTE_PLACEHOLDER,
  WEEKDAYS,
  invitationCsvTemplate,
  isVisitDate,
  readRule,
  weeklyRule,
  type InvitationCsvError,
  type InvitationRule,
  type InvitedState,
  type InvitedVisit,
  type Weekday,
} from '@sesame/shared';
import type { SafeParser } from '../../../lib/use-schema-form';

export type Lang = 'fr' | 'en';

/** One visitor's line of the form; `key` keeps React's rows apart as lines come and go. */
export interface VisitorRow {
  key: string;
  firstname: string;
  lastname: string;
  email: string;
  phone: string;
  organisation: string;
}
export type VisitorField = Exclude<keyof VisitorRow, 'key'>;
export const VISITOR_FIELDS: readonly VisitorField[] = INVITATION_CSV_COLUMNS.map((c) => c.field);

/** When, where and why: the fields the invite form, the import and "Modifier" share. */
export interface ScheduleValues {
  site_id: string;
  /** DD/MM/YYYY */
  date: string;
  hour: string;
  minute: string;
  end_hour: string;
  end_minute: string;
  reason: string;
  language: Lang;
  repeat: boolean;
  days: Weekday[];
  /** DD/MM/YYYY: the rule's last day. */
  until: string;
  /**
   * An invitation's rule the form cannot write (daily, a count, an interval), kept as it is
   * unless the host turns the weekly repetition on or drops it.
   */
  kept_rule: string | null;
  /**
   * The visitors' type (issue 31): one of the site's types; blank: not chosen here (a new
   * invitation gets the site's first, an edit keeps its own).
   */
  visitor_type_id: string;
}

export interface InviteValues extends ScheduleValues {
  visitors: VisitorRow[];
}

let rowCount = 0;
/** A blank visitor line (its key unique on the page). */
export function emptyVisitor(): VisitorRow {
  rowCount += 1;
  return {
    key: `visitor-${rowCount}`,
    firstname: '',
    lastname: '',
    email: '',
    phone: '',
    organisation: '',
  };
}

/** 'YYYY-MM-DD' → 'DD/MM/YYYY'. */
export const fromIsoDay = (iso: string) => iso.slice(0, 10).split('-').reverse().join('/');
/** 'DD/MM/YYYY' → 'YYYY-MM-DD'. */
export const toIsoDay = (date: string) => date.split('/').reverse().join('-');

/** The form's schedule: a new one at `siteId`, or an invitation's own (its rule read back). */
export function scheduleValues(
  siteId: string,
  visit?: Pick<
    InvitedVisit,
    'site' | 'date' | 'time' | 'end_time' | 'reason' | 'language' | 'rrule'
  >,
  { keepDate = true }: { keepDate?: boolean } = {},
): ScheduleValues {
  const [hour = HOUR_PLACEHOLDER, minute = MINUTE_PLACEHOLDER] = visit?.time.split(':') ?? [];
  const [endHour = HOUR_PLACEHOLDER, endMinute = MINUTE_PLACEHOLDER] =
    visit?.end_time.split(':') ?? [];
  const rule = visit?.rrule ? readRule(visit.rrule) : null;
  const weekly = rule && rule.freq === 'WEEKLY' && rule.until ? rule : null;
  return {
    site_id: visit?.site.id ?? siteId,
    date: visit && keepDate ? visit.date : '',
    hour,
    minute,
    end_hour: endHour,
    end_minute: endMinute,
    reason: visit?.reason ?? '',
    language: visit?.language ?? 'fr',
    repeat: !!weekly && keepDate,
    days: weekly && keepDate ? [...weekly.byDay] : [],
    until: weekly?.until && keepDate ? fromIsoDay(weekly.until) : '',
    kept_rule: rule && !weekly && keepDate ? visit!.rrule : null,
    visitor_type_id: '',
  };
}

/** The RRULE the form's repetition writes; null when it does not repeat. */
export function formRule(
  values: Pick<ScheduleValues, 'repeat' | 'days' | 'until'> & { kept_rule?: string | null },
) {
  return values.repeat ? weeklyRule(values.days, values.until) : (values.kept_rule ?? null);
}

/** The schedule as `invitationScheduleSchema`'s input. */
export function scheduleInput(values: ScheduleValues) {
  return {
    site_id: values.site_id,
    date: values.date,
    time: `${values.hour}:${values.minute}`,
    end_time: `${values.end_hour}:${values.end_minute}`,
    reason: values.reason,
    language: values.language,
    rrule: formRule(values),
    // Only a type chosen: an edit that shows none leaves the invitation's own as it is.
    ...(values.visitor_type_id ? { visitor_type_id: values.visitor_type_id } : {}),
  };
}

/** The whole form as `invitationInputSchema`'s input (each visitor without its row key). */
export function inviteInput(values: InviteValues) {
  return {
    ...scheduleInput(values),
    visitors: values.visitors.map((row) => ({
      firstname: row.firstname,
      lastname: row.lastname,
      email: row.email,
      phone: row.phone,
      organisation: row.organisation,
    })),
  };
}

/** The import's multipart fields: the schedule as text, the rule blank when none. */
export function scheduleFields(values: ScheduleValues): Record<string, string> {
  const input = scheduleInput(values);
  return { ...input, rrule: input.rrule ?? '' };
}

/**
 * A schema whose issues name their whole path as one field ('visitors.2.email'), as the
 * server's `errors` map does: the form layer keys its messages by an issue's first segment,
 * which would put every visitor's message on 'visitors'.
 */
export function withDottedPaths<Output>(schema: SafeParser<Output>): SafeParser<Output> {
  return {
    safeParse(input: unknown) {
      const parsed = schema.safeParse(input);
      if (parsed.success) return parsed;
      return {
        success: false,
        error: {
          issues: parsed.error.issues.map((issue) => ({
            ...issue,
            path: issue.path.length > 0 ? [issue.path.map(String).join('.')] : issue.path,
          })),
        },
      };
    },
  };
}

/** A weekday's name in `lang` ('short': 'Lun', 'Mon'; 'long': 'lundi', 'Monday'), from Intl. */
export function weekdayName(day: Weekday, lang: Lang, width: 'short' | 'long'): string {
  // 1 January 2024 was a Monday.
  const date = new Date(Date.UTC(2024, 0, 1 + WEEKDAYS.indexOf(day)));
  const name = new Intl.DateTimeFormat(lang === 'en' ? 'en-GB' : 'fr-FR', {
    weekday: width,
    timeZone: 'UTC',
  }).format(date);
  if (width === 'long') return name;
  const bare = name.replace(/\.$/, '');
  return bare.charAt(0).toUpperCase() + bare.slice(1);
}

/** 'lundi, mardi et jeudi' / 'Monday, Tuesday and Thursday'. */
export function listOf(words: readonly string[], lang: Lang): string {
  return new Intl.ListFormat(lang === 'en' ? 'en-GB' : 'fr-FR', {
    style: 'long',
    type: 'conjunction',
  }).format(words);
}

/** A day 'YYYY-MM-DD' in words: 'lundi 30 juin 2027' / 'Monday 30 June 2027'. */
export function dayInWords(iso: string, lang: Lang): string {
  const date = new Date(`${iso.slice(0, 10)}T12:00:00Z`);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(lang === 'en' ? 'en-GB' : 'fr-FR', {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(date);
}

/** The screen's translation function, as the helpers need it. */
export type Say = (key: string, options?: Record<string, unknown>) => string;

/**
 * A rule in words: 'Tous les lundis et jeudis jusqu'au 30/06/2027', 'Every Monday and
 * Thursday until 30/06/2027', 'Tous les jours, 5 fois'. `say` reads the screen's `rule.*` keys.
 */
export function ruleSentence(rule: InvitationRule | string | null, lang: Lang, say: Say): string {
  const read = typeof rule === 'string' ? readRule(rule) : rule;
  if (!read) return '';
  const plural = (name: string) => (lang === 'fr' ? `${name}s` : name);
  let every: string;
  if (read.freq === 'DAILY' || read.byDay.length === 0) {
    every =
      read.freq === 'DAILY'
        ? say('rule.everyDay', { count: read.interval })
        : say('rule.everyWeek', { count: read.interval });
  } else {
    const days = listOf(
      WEEKDAYS.filter((day) => read.byDay.includes(day)).map((day) =>
        plural(weekdayName(day, lang, 'long')),
      ),
      lang,
    );
    every =
      read.interval === 1
        ? say('rule.everyDays', { days })
        : say('rule.everyDaysOfWeeks', { days, count: read.interval });
  }
  const end = read.until
    ? say('rule.until', { date: fromIsoDay(read.until) })
    : say('rule.times', { count: read.count ?? 0 });
  return `${every} ${end}`.trim();
}

/** The days a recurring invitation may still lose: not cancelled, today or later (YYYY-MM-DD). */
export function cancellableDays(visit: Pick<InvitedVisit, 'days'>, today: string): string[] {
  return visit.days.filter((d) => !d.cancelled && d.day >= today).map((d) => d.day);
}

/** The day a row says: the next one, else the last day not cancelled, else the first. */
export function shownDay(visit: Pick<InvitedVisit, 'next_day' | 'days' | 'date'>): string {
  if (visit.next_day) return visit.next_day;
  const standing = visit.days.filter((d) => !d.cancelled);
  return standing.at(-1)?.day ?? visit.days.at(-1)?.day ?? toIsoDay(visit.date);
}

/** The state badge's colours: each state its own, and its words beside it. */
export const STATE_COLORS: Record<InvitedState, { color: string; c?: string }> = {
  invited: { color: 'blue' },
  completed: { color: 'grape' },
  here: { color: 'orange', c: 'orange.9' },
  arrived: { color: 'teal' },
  left: { color: 'gray' },
  cancelled: { color: 'red' },
};

/** The template a host downloads, with its BOM (French Excel reads UTF-8 by it), and its name. */
export function csvTemplateFile(lang: Lang): { text: string; name: string } {
  return {
    text: `\uFEFF${invitationCsvTemplate(lang)}`,
    name: lang === 'en' ? 'invitation-template.csv' : 'modele-invitations.csv',
  };
}

/** The CSV's column names in the screen's language, in the template's order. */
export const csvColumns = (lang: Lang) => INVITATION_CSV_COLUMNS.map((column) => column[lang]);

/** A refused line as said: 'Ligne 12 — E-mail : …' (the column named in the screen's language). */
export function csvErrorLine(error: InvitationCsvError, lang: Lang, say: Say): string {
  const column = INVITATION_CSV_COLUMNS.find((c) => c.field === error.field);
  return column
    ? say('csv.errorField', { line: error.line, field: column[lang], message: error.message })
    : say('csv.errorLine', { line: error.line, message: error.message });
}

/** "Inviter à nouveau": the form filled with the visitor and the invitation's place, times, reason. */
export function againValues(
  visit: InvitedVisit,
  sites: readonly { id: string }[],
  homeSiteId?: string | null,
): InviteValues {
  const schedule = scheduleValues(visit.site.id, visit, { keepDate: false });
  return {
    ...schedule,
    // A site archived since: the one the form would choose.
    site_id: sites.some((site) => site.id === visit.site.id)
      ? visit.site.id
      : preselectedSite(sites, homeSiteId),
    visitors: [
      {
        ...emptyVisitor(),
        firstname: visit.firstname,
        lastname: visit.lastname,
        email: visit.email,
        phone: visit.phone,
        organisation: visit.organisation,
      },
    ],
  };
}

/** The site preselected: the home site when it is one of the active sites, else the only one. */
export function preselectedSite(
  sites: readonly { id: string }[],
  homeSiteId: string | null | undefined,
): string {
  if (sites.length === 1) return sites[0]!.id;
  return sites.some((site) => site.id === homeSiteId) ? homeSiteId! : '';
}

/**
 * What the schema cannot say of a schedule (a day past at the site, the rule's end), as the
 * screen's message keys: `today` is the site's ('YYYY-MM-DD'). `keptDate` is the first day an
 * invitation under way already has: kept as it is, it is no past day to refuse (the server
 * accepts it while some of its days are still to come).
 */
export function scheduleProblems(
  values: Pick<ScheduleValues, 'date' | 'repeat' | 'until'>,
  today: string,
  keptDate?: string,
): { date?: 'datePast'; until?: 'untilInvalid' | 'untilBeforeDate' } {
  const problems: { date?: 'datePast'; until?: 'untilInvalid' | 'untilBeforeDate' } = {};
  if (isVisitDate(values.date) && toIsoDay(values.date) < today && values.date !== keptDate)
    problems.date = 'datePast';
  if (values.repeat) {
    if (!isVisitDate(values.until)) problems.until = 'untilInvalid';
    else if (isVisitDate(values.date) && toIsoDay(values.until) < toIsoDay(values.date))
      problems.until = 'untilBeforeDate';
  }
  return problems;
}
