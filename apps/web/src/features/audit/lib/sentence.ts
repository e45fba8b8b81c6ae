/**
 * An audit entry said in a sentence, in the reader's language (issue 27): who did what to
 * whom, and what changed — a setting's before → after, a purge's counts. The names come
 * from the server's joins (`actor_name`, `subject_name`, as they are now); the rest from
 * the entry's `detail`, which holds ids, roles, days and counts only. Pure: `t` reads the
 * `audit` namespace (and `users:roles`), so a unit test builds the sentences in both
 * languages from the locale files.
 */
import { isRole, PURGE_COUNT_KEYS, type AuditListEntry } from '@sesame/shared';
import type { TFunction } from '../../../lib/translator';
import { formatLongDate } from '../../../lib/format';

type Detail = Record<string, unknown>;

/** The retention classes as `retention.changed` names them (`documentsDays: '30→15'`). */
const RETENTION_NAMES = ['documents', 'identity', 'checks', 'audit'] as const;

/** What a purge or an erasure counts, in the order a reader expects them. */
const ERASURE_COUNTS = ['documents', 'requests', 'checks', 'mails'] as const;
const ROLL_CALL_COUNTS = ['safe', 'missing', 'unknown', 'total'] as const;

/** `'30→15'` as its two sides; null for anything else. */
export function beforeAfter(value: unknown): [string, string] | null {
  if (typeof value !== 'string') return null;
  const parts = value.split('→');
  return parts.length === 2 ? [parts[0]!.trim(), parts[1]!.trim()] : null;
}

const count = (detail: Detail, key: string): number | null =>
  typeof detail[key] === 'number' ? detail[key] : null;

/** 'a, b et c' / 'a, b and c'. */
function listOf(items: string[], lang: string): string {
  return new Intl.ListFormat(lang, { style: 'long', type: 'conjunction' }).format(items);
}

function roleName(role: unknown, t: TFunction): string {
  return isRole(role) ? t(`users:roles.${role}`) : String(role ?? '');
}

/** A phrase after 'de' / 'of': French elides before a vowel ('d'Aïcha', 'de Mariam'). */
export function ofPhrase(phrase: string, t: TFunction): string {
  return t(/^[aeiouyàâäéèêëîïôöùûüÿæœ]/i.test(phrase) ? 'audit:of.vowel' : 'audit:of.consonant', {
    phrase,
  });
}

/** Who acted: their name, else a deleted account, else the system. */
export function actorPhrase(entry: AuditListEntry, t: TFunction): string {
  if (entry.actor_name) return entry.actor_name;
  return t(entry.actor_id ? 'audit:actor.deleted' : 'audit:actor.system');
}

/**
 * Whom or what the entry is about, as a noun phrase a sentence can hold after 'de' or 'à':
 * the name ('Awa Koné', 'l'événement « Salon »'), or what became of it, never a name of an
 * anonymised or erased person (the server sends none).
 */
export function subjectPhrase(entry: AuditListEntry, t: TFunction): string {
  const type = entry.subject_type;
  if (!type) return '';
  if (entry.subject_state === 'gone') return t(`audit:subject.gone.${type}`);
  if (entry.subject_state === 'anonymised') {
    return t([`audit:subject.anonymised.${type}`, `audit:subject.gone.${type}`]);
  }
  if (!entry.subject_name) return t(`audit:subject.unnamed.${type}`);
  return t(`audit:subject.named.${type}`, {
    name: entry.subject_name,
    of: ofPhrase(entry.subject_name, t),
  });
}

/** A setting's value as a reader knows it (minutes, on / off, a time as stored). */
function settingValue(field: string, value: string, t: TFunction): string {
  if (field === 'arrivalEarlyMinutes') return t('audit:settings.minutes', { value });
  if (field === 'kioskEmailEnabled') {
    return t(value === 'true' ? 'audit:settings.on' : 'audit:settings.off');
  }
  return value;
}

/** The fields an edit changed, a setting with its before → after. */
function fieldChanges(detail: Detail, t: TFunction): string[] {
  const fields = Array.isArray(detail.fields) ? detail.fields.map(String) : [];
  return fields.map((field) => {
    const label = t(`audit:fields.${field}`, { defaultValue: field });
    const change = beforeAfter(detail[field]);
    if (!change) return label;
    return t('audit:change', {
      label,
      before: settingValue(field, change[0], t),
      after: settingValue(field, change[1], t),
    });
  });
}

/** The periods a retention save changed, each before → after, and a shortening's date. */
function retentionChanges(detail: Detail, t: TFunction, lang: string): string[] {
  const changes: string[] = [];
  for (const name of RETENTION_NAMES) {
    const change = beforeAfter(detail[`${name}Days`]);
    if (!change || change[0] === change[1]) continue;
    const said = t('audit:retention.change', {
      label: t(`audit:retention.${name}`),
      before: change[0],
      after: change[1],
    });
    const appliesAt = detail[`${name}AppliesAt`];
    changes.push(
      typeof appliesAt === 'string'
        ? t('audit:retention.appliesAt', {
            change: said,
            date: formatLongDate(appliesAt, undefined, lang),
          })
        : said,
    );
  }
  if (detail.noticeChanged === true) changes.push(t('audit:retention.notice'));
  return changes;
}

/** `label : n` for each count the detail holds (those above zero when `nonZero`). */
function counts(
  detail: Detail,
  keys: readonly string[],
  words: string,
  t: TFunction,
  nonZero = false,
): string[] {
  return keys.flatMap((key) => {
    const n = count(detail, key);
    if (n === null || (nonZero && n === 0)) return [];
    return [t(`audit:${words}.${key}`, { n })];
  });
}

/** The sentence's key (under `audit:sentences`) and its values. */
function sentenceOf(
  entry: AuditListEntry,
  t: TFunction,
  lang: string,
): { key: string; values?: Record<string, unknown>; then?: string } {
  const detail: Detail = entry.detail ?? {};
  const action = entry.action;
  switch (action) {
    case 'document.viewed':
      if (entry.subject_type === 'file') return { key: 'document.viewed_file' };
      return { key: detail.kind === 'member_photo' ? 'document.viewed_photo' : action };
    case 'auth.sign_in_failed': {
      const known = ['password', 'disabled', 'sso_enforced'] as const;
      const reason = known.find((r) => r === detail.reason) ?? 'unknown';
      return { key: action, values: { reason: t(`audit:reasons.${reason}`) } };
    }
    case 'auth.sign_in_throttled':
      return {
        key: action,
        values: { count: count(detail, 'attempts') ?? 0, client: String(detail.client ?? '') },
      };
    case 'user.created':
      return { key: action, values: { role: roleName(detail.role, t) } };
    case 'user.role_changed':
      return {
        key: action,
        values: { from: roleName(detail.fromRole, t), to: roleName(detail.toRole, t) },
      };
    case 'company.updated': {
      const changes = fieldChanges(detail, t);
      return changes.length
        ? { key: action, values: { changes: listOf(changes, lang) } }
        : { key: 'company.updated_none' };
    }
    case 'site.updated': {
      const changes = fieldChanges(detail, t);
      return changes.length
        ? { key: action, values: { changes: listOf(changes, lang) } }
        : { key: 'site.updated_none' };
    }
    case 'qr_user.updated':
      return { key: action, values: { changes: listOf(fieldChanges(detail, t), lang) } };
    case 'check.undone':
      return {
        key:
          detail.undone === 'arrival' || detail.undone === 'departure'
            ? `check.undone_${detail.undone}`
            : action,
      };
    case 'badge.printed': {
      // Issue 29: a reprint says so; a kiosk's print has no staff actor.
      const kind = detail.reprint === true ? 'reprinted' : 'printed';
      return { key: `badge.${kind}${typeof detail.kioskId === 'string' ? '_kiosk' : ''}` };
    }
    case 'roll_call.started':
      return { key: action, values: { count: count(detail, 'people') ?? 0 } };
    case 'roll_call.ended':
      return {
        key: action,
        values: { counts: listOf(counts(detail, ROLL_CALL_COUNTS, 'rollCall', t), lang) },
      };
    case 'retention.changed': {
      const changes = retentionChanges(detail, t, lang);
      return changes.length
        ? { key: action, values: { changes: listOf(changes, lang) } }
        : { key: 'retention.changed_none' };
    }
    case 'retention.purged': {
      const day =
        typeof detail.day === 'string'
          ? formatLongDate(`${detail.day}T12:00:00Z`, 'UTC', lang)
          : '';
      const removed = counts(detail, PURGE_COUNT_KEYS, 'counts', t, true);
      const then = detail.finished === false ? t('audit:sentences.purgeUnfinished') : undefined;
      return removed.length
        ? { key: action, values: { day, counts: listOf(removed, lang) }, then }
        : { key: 'retention.purged_none', values: { day }, then };
    }
    // Issue 34: what the entry's detail says of an endpoint, a token, a channel (never a secret).
    case 'webhook.created':
    case 'webhook.deleted':
      return typeof detail.host === 'string'
        ? { key: `${action}_host`, values: { host: detail.host } }
        : { key: action };
    case 'webhook.updated':
      if (detail.enabled === true) return { key: 'webhook.enabled' };
      if (detail.enabled === false) return { key: 'webhook.disabled' };
      return { key: action };
    case 'webhook.resent':
      return typeof detail.type === 'string'
        ? { key: 'webhook.resent_type', values: { type: detail.type } }
        : { key: action };
    case 'chat.updated':
      return detail.slackBotToken === 'replaced' || detail.slackBotToken === 'removed'
        ? { key: `chat.token_${detail.slackBotToken}` }
        : { key: action };
    case 'chat.channel_added':
    case 'chat.channel_removed':
      return detail.kind === 'slack_webhook' || detail.kind === 'teams_workflow'
        ? { key: `${action}_kind`, values: { kind: t(`audit:chatKinds.${detail.kind}`) } }
        : { key: action };
    case 'person.erased':
      return {
        key: action,
        values: { counts: listOf(counts(detail, ERASURE_COUNTS, 'counts', t), lang) },
      };
    default:
      return { key: action };
  }
}

/** A staff member moved between companies (issue 26 §9): where to, or where from. */
function moveOf(entry: AuditListEntry, t: TFunction): string | undefined {
  const detail: Detail = entry.detail ?? {};
  if (!entry.action.startsWith('user.') || !(detail.movedTo || detail.movedFrom)) return undefined;
  const company = entry.other_company_name ?? t('audit:sentences.otherCompany');
  return t(`audit:sentences.${detail.movedTo ? 'movedTo' : 'movedFrom'}`, { company });
}

/**
 * The entry in one sentence ('Awa Koné a consulté la pièce d'identité de Mariam Ouattara.');
 * an action without a sentence of its own reads as its label.
 */
export function auditSentence(entry: AuditListEntry, t: TFunction, lang: string): string {
  const { key, values, then } = sentenceOf(entry, t, lang);
  const subject = subjectPhrase(entry, t);
  const said = t(`audit:sentences.${key}`, {
    actor: actorPhrase(entry, t),
    subject,
    ofSubject: ofPhrase(subject, t),
    ...values,
    defaultValue: t(`privacy:audit.actions.${entry.action}`, { defaultValue: entry.action }),
  });
  return [said, then, moveOf(entry, t)].filter(Boolean).join(' ');
}
