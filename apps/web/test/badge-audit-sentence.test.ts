/**
 * Issue 29: a badge print in the audit log, with the real locale files — by the front desk or
 * by a kiosk (no staff actor), a first print or a reprint, in both languages.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AuditListEntry } from '@sesame/shared';
import { auditSentence } from '../src/features/audit/lib/sentence';
import { Translator, type TFunction, type Words } from '../src/lib/translator';

const LOCALES = join(import.meta.dirname, '../src/locales');

async function wordsIn(language: 'fr' | 'en'): Promise<TFunction> {
  const tr = new Translator({
    language,
    fallbackLanguage: language,
    defaultNamespace: 'audit',
    load: (lng, ns) =>
      Promise.resolve(JSON.parse(readFileSync(join(LOCALES, lng, `${ns}.json`), 'utf8')) as Words),
  });
  await tr.ensure(['audit', 'privacy', 'users']);
  return tr.fixedT(['audit', 'privacy', 'users']);
}
const fr = await wordsIn('fr');
const en = await wordsIn('en');

/** A badge.printed entry about Awa Koné's request. */
function printed(detail: Record<string, unknown>, actor: string | null): AuditListEntry {
  return {
    id: '1',
    at: '2026-11-28T10:00:00.000Z',
    company_id: 'c',
    company_name: 'Demo SA',
    actor_id: actor ? 'u' : null,
    actor_name: actor,
    actor_role: actor ? 'ROLE_EMPLOYEE' : null,
    actor_company_name: actor ? 'Demo SA' : null,
    action: 'badge.printed',
    subject_type: 'request',
    subject_id: 'r',
    subject_name: 'Awa Koné',
    subject_role: null,
    subject_company_name: null,
    subject_state: 'present',
    other_company_name: null,
    detail,
    by_platform: false,
  };
}

describe('badge prints in the audit log', () => {
  it('the front desk prints, then reprints', () => {
    const first = printed({ via: 'ipp', badgeSize: '62x100', reprint: false }, 'Séverine Kouamé');
    const again = printed(
      { via: 'browser', badgeSize: '62x100', reprint: true },
      'Séverine Kouamé',
    );
    expect(auditSentence(first, fr, 'fr')).toBe(
      "Séverine Kouamé a imprimé le badge de la demande d'Awa Koné.",
    );
    expect(auditSentence(again, fr, 'fr')).toBe(
      "Séverine Kouamé a réimprimé le badge de la demande d'Awa Koné.",
    );
    expect(auditSentence(first, en, 'en')).toBe(
      'Séverine Kouamé printed the badge for the request of Awa Koné.',
    );
    expect(auditSentence(again, en, 'en')).toBe(
      'Séverine Kouamé reprinted the badge for the request of Awa Koné.',
    );
  });

  it('a kiosk prints: no staff actor, the kiosk said', () => {
    const entry = printed({ via: 'ipp', badgeSize: '54x86', reprint: false, kioskId: 'k' }, null);
    expect(auditSentence(entry, fr, 'fr')).toBe(
      "La borne a imprimé le badge de la demande d'Awa Koné.",
    );
    expect(auditSentence(entry, en, 'en')).toBe(
      'The kiosk printed the badge for the request of Awa Koné.',
    );
  });
});
