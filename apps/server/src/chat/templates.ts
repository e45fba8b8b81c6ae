/**
 * The hosts' chat messages (issue 34): a request to decide, a visitor arrived, "I'm here",
 * each in its reader's language, said once as a message (a headline, details, a note, links,
 * a context line) and then written as Slack wants it (`text` and Block Kit `blocks`, mrkdwn)
 * or as Teams wants it (a Workflows webhook's message with an Adaptive Card).
 *
 * Sent to the host alone (a Slack direct message) it says "you"; posted in a channel, which
 * many read, it names the host. It never carries the identity document, the visitor's
 * e-mail or phone. Everything a visitor typed is escaped: a visitor named `<!channel>` pings
 * nobody, one named `[click](https://…)` makes no link.
 */
import { COLON, LOCALE, type Language } from '../mail/layout';
import { longDate } from '../mail/templates';
import { timeAtSite, type MailSite } from '../mail/zone';

/** Who reads it: the host alone (a direct message), or a channel's members. */
export type Audience = 'direct' | 'channel';

export interface ChatLink {
  label: string;
  url: string;
  style?: 'primary' | 'danger';
}

/** A message before it is written for Slack or Teams: plain text throughout. */
export interface ChatMessage {
  headline: string;
  details: [label: string, value: string | null | undefined][];
  note: string | null;
  links: ChatLink[];
  /** The small line at the bottom: Sésame, the company, and whom it is for in a channel. */
  context: string;
  lang: Language;
}

const T = {
  fr: {
    organisation: 'Entreprise',
    reason: 'Motif',
    host: 'Hôte',
    site: 'Site',
    hereAt: 'Arrivée signalée à',
    confirm: 'Valider',
    decline: 'Annuler',
    myVisitors: 'Voir mes visiteurs',
    onSite: 'Ouvrir la liste sur site',
    forWhom: (name: string) => `pour ${name}`,
    request: (visitor: string, date: string | null, time: string | null) =>
      `Nouvelle demande de rendez-vous de ${visitor}${date ? ` pour le ${date}` : ''}${time ? ` à ${time}` : ''}`,
    requestNote:
      'Chaque bouton ouvre une page où vous confirmez votre choix. Les liens expirent à la fin du jour du rendez-vous.',
    requestChannelNote: (name: string) =>
      `${name} décide dans Sésame, connecté(e) : un canal est partagé, il ne porte aucun lien qui décide.`,
    openRequests: 'Ouvrir les demandes',
    arrival: (visitor: string, site: string, time: string) =>
      `Votre visiteur ${visitor} est arrivé(e) à ${site} à ${time}`,
    arrivalChannel: (visitor: string, host: string, site: string, time: string) =>
      `${visitor}, visiteur de ${host}, est arrivé(e) à ${site} à ${time}`,
    arrivalOff: 'Vous pouvez choisir vos messages dans « Mes notifications ».',
    here: (visitor: string, site: string) =>
      `${visitor} signale être arrivé(e) à l'accueil de ${site}`,
    hereInvited: (visitor: string, host: string | null, site: string) =>
      host
        ? `${visitor}, invité(e) par ${host}, signale être arrivé(e) à l'accueil de ${site}`
        : `${visitor}, invité(e), signale être arrivé(e) à l'accueil de ${site}`,
    notCheckIn: "L'arrivée n'est pas encore enregistrée : l'accueil scanne son code.",
  },
  en: {
    organisation: 'Company',
    reason: 'Reason',
    host: 'Host',
    site: 'Site',
    hereAt: 'Arrival reported at',
    confirm: 'Confirm',
    decline: 'Decline',
    myVisitors: 'See my visitors',
    onSite: 'Open the on-site list',
    forWhom: (name: string) => `for ${name}`,
    request: (visitor: string, date: string | null, time: string | null) =>
      `New meeting request from ${visitor}${date ? ` for ${date}` : ''}${time ? ` at ${time}` : ''}`,
    requestNote:
      'Each button opens a page where you confirm your choice. The links expire at the end of the meeting day.',
    requestChannelNote: (name: string) =>
      `${name} decides in Sésame, signed in: a channel is shared, so it carries no link that decides.`,
    openRequests: 'Open the requests',
    arrival: (visitor: string, site: string, time: string) =>
      `Your visitor ${visitor} has arrived at ${site} at ${time}`,
    arrivalChannel: (visitor: string, host: string, site: string, time: string) =>
      `${visitor}, visitor of ${host}, has arrived at ${site} at ${time}`,
    arrivalOff: 'You can choose your messages in “My notifications”.',
    here: (visitor: string, site: string) =>
      `${visitor} says they have arrived at the front desk of ${site}`,
    hereInvited: (visitor: string, host: string | null, site: string) =>
      host
        ? `${visitor}, invited by ${host}, says they have arrived at the front desk of ${site}`
        : `${visitor}, invited, says they have arrived at the front desk of ${site}`,
    notCheckIn: 'The arrival is not recorded yet: the front desk scans their code.',
  },
} as const;

export interface ChatVisitor {
  firstname: string;
  lastname: string;
  organisationName: string;
}

/** The person the message is for: their language and name. */
export interface ChatReader {
  lang: Language;
  name: string;
  /** Whether they are the visit's host (else the front desk, answering for them). */
  isHost: boolean;
}

const fullName = (v: { firstname: string; lastname: string }) =>
  `${v.firstname} ${v.lastname}`.trim();

function context(company: string, reader: ChatReader, audience: Audience): string {
  const parts = ['Sésame', company];
  if (audience === 'channel') parts.push(T[reader.lang].forWhom(reader.name));
  return parts.join(' · ');
}

/**
 * A visit request to decide. A direct message carries the same signed links (Valider /
 * Annuler) as its mail; a channel is read by many, so it carries only the request list,
 * where the decision is made signed in (a signed link there would let anyone in the
 * channel decide on the host's behalf).
 */
export function requestMessage(
  source: {
    company: { name: string };
    visitor: ChatVisitor & { requestDate: string | null; requestTime: string | null };
    request: { reason: string | null; hostName: string | null };
    site: MailSite;
  },
  reader: ChatReader,
  links: { confirm: string; decline: string; requests: string },
  audience: Audience,
): ChatMessage {
  const { lang } = reader;
  const t = T[lang];
  const { visitor } = source;
  return {
    lang,
    headline: t.request(
      fullName(visitor),
      longDate(visitor.requestDate, LOCALE[lang]),
      timeAtSite(visitor.requestTime, source.site, lang),
    ),
    details: [
      [t.organisation, visitor.organisationName],
      [t.host, audience === 'channel' || !reader.isHost ? source.request.hostName : null],
      [t.reason, source.request.reason],
      [t.site, source.site.named || audience === 'channel' ? source.site.name : null],
    ],
    note: audience === 'channel' ? t.requestChannelNote(reader.name) : t.requestNote,
    links:
      audience === 'channel'
        ? [{ label: t.openRequests, url: links.requests }]
        : [
            { label: t.confirm, url: links.confirm, style: 'primary' },
            { label: t.decline, url: links.decline, style: 'danger' },
          ],
    context: context(source.company.name, reader, audience),
  };
}

/** The host's visitor checked in (the arrival at the desk), at `time` in the site's zone. */
export function arrivalMessage(
  source: { company: { name: string }; visitor: ChatVisitor; siteName: string; time: string },
  reader: ChatReader,
  audience: Audience,
): ChatMessage {
  const { lang } = reader;
  const t = T[lang];
  const visitor = fullName(source.visitor);
  return {
    lang,
    headline:
      audience === 'channel'
        ? t.arrivalChannel(visitor, reader.name, source.siteName, source.time)
        : t.arrival(visitor, source.siteName, source.time),
    details: [[t.organisation, source.visitor.organisationName]],
    note: audience === 'direct' ? t.arrivalOff : null,
    links: [],
    context: context(source.company.name, reader, audience),
  };
}

/** "I'm here", pressed by an invited visitor: not a check-in yet. */
export function hereMessage(
  source: {
    company: { name: string };
    visitor: ChatVisitor;
    siteName: string;
    hostName: string | null;
    reason: string | null;
    /** When it was pressed, in the site's zone ('HH:MM'). */
    at: string | null;
  },
  reader: ChatReader,
  link: string,
  audience: Audience,
): ChatMessage {
  const { lang } = reader;
  const t = T[lang];
  const visitor = fullName(source.visitor);
  const personal = audience === 'direct' && reader.isHost;
  return {
    lang,
    headline: personal
      ? t.here(visitor, source.siteName)
      : t.hereInvited(visitor, source.hostName, source.siteName),
    details: [
      [t.organisation, source.visitor.organisationName],
      [t.hereAt, source.at],
      [t.reason, source.reason],
    ],
    note: t.notCheckIn,
    links: [{ label: reader.isHost ? t.myVisitors : t.onSite, url: link }],
    context: context(source.company.name, reader, audience),
  };
}

// ---------------------------------------------------------------------------------------
// Slack and Teams

/** One line: a value's line breaks and tabs would break the layout (or start a list). */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * Slack's mrkdwn escapes: `&`, `<` and `>` are its control characters (`<!channel>`,
 * `<@U123>`, `<https://…|link>`), and escaped they are only text.
 */
export const slackEscape = (text: string) =>
  oneLine(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * Teams' TextBlock markdown: emphasis, links and code are escaped with a backslash, and a
 * line cannot open a list or a heading. (Teams mentions need an entity Sésame never sends.)
 */
export const teamsEscape = (text: string) =>
  oneLine(text)
    .replace(/[\\*_[\]`~]/g, (c) => `\\${c}`)
    .replace(/^(\d+)\./, '$1\\.')
    .replace(/^([#>+-])/, '\\$1')
    .replace(/\{\{/g, '{\\{');

const shown = (details: ChatMessage['details']) =>
  details.filter((d): d is [string, string] => Boolean(d[1]?.trim()));

/** Slack's limit on a section's text. */
const SLACK_SECTION_MAX = 3000;

/**
 * An incoming webhook's body, and chat.postMessage's without its `channel`: `text` (the
 * notification's line, and what clients without blocks show), then a mrkdwn section, the
 * links as buttons, and a context line.
 */
export function slackBody(message: ChatMessage): { text: string; blocks: unknown[] } {
  const colon = COLON[message.lang];
  const lines = [
    `*${slackEscape(message.headline)}*`,
    ...shown(message.details).map(
      ([label, value]) => `*${slackEscape(label)}*${colon}${slackEscape(value)}`,
    ),
    ...(message.note ? [`_${slackEscape(message.note)}_`] : []),
  ];
  const blocks: unknown[] = [
    {
      type: 'section',
      text: { type: 'mrkdwn', text: lines.join('\n').slice(0, SLACK_SECTION_MAX) },
    },
  ];
  if (message.links.length > 0) {
    blocks.push({
      type: 'actions',
      elements: message.links.map((link, i) => ({
        type: 'button',
        action_id: `sesame_link_${i}`,
        text: { type: 'plain_text', text: link.label, emoji: false },
        url: link.url,
        ...(link.style ? { style: link.style } : {}),
      })),
    });
  }
  blocks.push({
    type: 'context',
    elements: [{ type: 'mrkdwn', text: slackEscape(message.context) }],
  });
  return { text: slackEscape(message.headline), blocks };
}

/** A Teams Workflows webhook's body ("Post to a channel when a webhook request is received"). */
export function teamsBody(message: ChatMessage) {
  const colon = COLON[message.lang];
  const text = (value: string, more: Record<string, unknown> = {}) => ({
    type: 'TextBlock',
    text: value,
    wrap: true,
    ...more,
  });
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            text(teamsEscape(message.headline), { weight: 'Bolder', size: 'Medium' }),
            ...shown(message.details).map(([label, value]) =>
              text(`**${teamsEscape(label)}**${colon}${teamsEscape(value)}`, { spacing: 'Small' }),
            ),
            ...(message.note ? [text(teamsEscape(message.note), { isSubtle: true })] : []),
            text(teamsEscape(message.context), { isSubtle: true, size: 'Small' }),
          ],
          ...(message.links.length > 0
            ? {
                actions: message.links.map((link) => ({
                  type: 'Action.OpenUrl',
                  title: link.label,
                  url: link.url,
                })),
              }
            : {}),
        },
      },
    ],
  };
}
