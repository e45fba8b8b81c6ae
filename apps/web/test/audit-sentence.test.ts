/**
 * Issue 27: the audit log says what happened in a sentence of the reader's language, built
 * from the names the server joined and the entry's detail (features/audit/lib/sentence.ts),
 * with the real locale files: every action has its sentence in both languages, a setting
 * reads before → after, and an anonymised or erased person is never named.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS, type AuditListEntry } from '@sesame/shared';
import { auditSentence, ofPhrase } from '../src/features/audit/lib/sentence';
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

/** An entry by Séverine Kouamé (manager of Demo SA) about `subject`. */
function entry(action: string, fields: Partial<AuditListEntry> = {}): AuditListEntry {
  return {
    id: '1',
    at: '2026-11-27T10:00:00.000Z',
    company_id: 'c',
    company_name: 'Demo SA',
    actor_id: 'u',
    actor_name: 'Séverine Kouamé',
    actor_role: 'ROLE_MANAGER',
    actor_company_name: 'Demo SA',
    action,
    subject_type: null,
    subject_id: null,
    subject_name: null,
    subject_role: null,
    subject_company_name: null,
    subject_state: null,
    other_company_name: null,
    detail: null,
    by_platform: false,
    ...fields,
  };
}
const aboutVisitor = (name: string | null, state: AuditListEntry['subject_state'] = 'present') => ({
  subject_type: 'visitor',
  subject_id: 'v',
  subject_name: name,
  subject_state: state,
});

describe('the audit log in sentences', () => {
  it('has a sentence of its own for every action, in French and in English, with every value filled', () => {
    for (const action of AUDIT_ACTIONS) {
      for (const [t, lang] of [
        [fr, 'fr'],
        [en, 'en'],
      ] as const) {
        const said = auditSentence(
          entry(action, { ...aboutVisitor('Mariam Ouattara'), detail: {} }),
          t,
          lang,
        );
        expect(said, `${lang} ${action}`).not.toBe(t(`privacy:audit.actions.${action}`));
        expect(said, `${lang} ${action}`).not.toMatch(/\{\{|audit:|sentences\./);
        expect(said, `${lang} ${action}`).toMatch(/\.$/);
      }
    }
  });

  it("names who looked at whose document, eliding French 'de' before a vowel", () => {
    const viewed = entry('document.viewed', {
      ...aboutVisitor('Mariam Ouattara'),
      detail: { fileId: 'f', kind: 'visitor' },
    });
    expect(auditSentence(viewed, fr, 'fr')).toBe(
      "Séverine Kouamé a consulté la pièce d'identité de Mariam Ouattara.",
    );
    expect(auditSentence(viewed, en, 'en')).toBe(
      'Séverine Kouamé viewed the identity document of Mariam Ouattara.',
    );
    const aicha = { ...viewed, subject_name: 'Aïcha Traoré' };
    expect(auditSentence(aicha, fr, 'fr')).toBe(
      "Séverine Kouamé a consulté la pièce d'identité d'Aïcha Traoré.",
    );
    expect(ofPhrase('Ibrahim', fr)).toBe("d'Ibrahim");
    expect(ofPhrase('la demande', fr)).toBe('de la demande');
    // A member's photo is said so.
    expect(
      auditSentence(
        { ...viewed, subject_type: 'qr_user', detail: { kind: 'member_photo' } },
        fr,
        'fr',
      ),
    ).toBe('Séverine Kouamé a consulté la photo de Mariam Ouattara.');
  });

  it('says why a sign-in was refused, enforced single sign-on included (issue 33)', () => {
    const refused = (reason: string) =>
      entry('auth.sign_in_failed', { detail: { reason }, subject_type: 'user' });
    expect(auditSentence(refused('sso_enforced'), fr, 'fr')).toBe(
      "Séverine Kouamé n'a pas pu ouvrir de session : mot de passe refusé : l'entreprise impose sa connexion unique (SSO).",
    );
    expect(auditSentence(refused('sso_enforced'), en, 'en')).toMatch(/requires single sign-on/);
    expect(auditSentence(refused('password'), fr, 'fr')).toMatch(/mot de passe erroné\.$/);
  });

  it('says an anonymised or erased person without a name, a deleted account and the system', () => {
    const anonymised = entry('check.manual_in', aboutVisitor(null, 'anonymised'));
    expect(auditSentence(anonymised, fr, 'fr')).toBe(
      "Séverine Kouamé a enregistré à la main l'arrivée de ce visiteur (anonymisé).",
    );
    const gone = entry('request.confirmed', {
      subject_type: 'request',
      subject_state: 'gone',
    });
    expect(auditSentence(gone, fr, 'fr')).toBe(
      'Séverine Kouamé a validé cette demande (supprimée depuis).',
    );
    expect(auditSentence(gone, en, 'en')).toBe(
      'Séverine Kouamé confirmed this request (since deleted).',
    );
    const request = { ...gone, subject_state: 'present' as const, subject_name: 'Aïcha Traoré' };
    expect(auditSentence(request, fr, 'fr')).toBe(
      "Séverine Kouamé a validé la demande d'Aïcha Traoré.",
    );
    const byDeleted = entry('auth.signed_in', {
      actor_id: 'u',
      actor_name: null,
      actor_role: null,
    });
    expect(auditSentence(byDeleted, fr, 'fr')).toBe(
      'Un compte supprimé depuis a ouvert une session.',
    );
    const purge = entry('retention.purged', {
      actor_id: null,
      actor_name: null,
      detail: { day: '2026-11-26', documents: 3, identities: 0, auditEntries: 12, finished: true },
    });
    expect(auditSentence(purge, fr, 'fr')).toBe(
      'La purge quotidienne du 26 novembre 2026 a retiré : pièces : 3 et entrées du journal : 12.',
    );
    expect(auditSentence({ ...purge, detail: { day: '2026-11-26', documents: 0 } }, en, 'en')).toBe(
      'The daily purge of 26 November 2026 removed nothing.',
    );
  });

  it('reads a retention change before → after, with the date a shortening applies', () => {
    const changed = entry('retention.changed', {
      subject_type: 'company',
      subject_name: 'Demo SA',
      subject_state: 'present',
      detail: {
        documentsDays: '30→15',
        documentsAppliesAt: '2026-12-04T10:00:00.000Z',
        identityDays: '365→400',
        checksDays: '730→730',
        auditDays: '1095→1095',
        noticeChanged: false,
      },
    });
    expect(auditSentence(changed, fr, 'fr')).toBe(
      'Séverine Kouamé a modifié les durées de conservation : ' +
        "pièces d'identité et photos : 30 → 15 jours (à partir du 4 décembre 2026) et " +
        'identité des visiteurs : 365 → 400 jours.',
    );
    expect(auditSentence(changed, en, 'en')).toBe(
      'Séverine Kouamé changed the retention periods: ' +
        'identity documents and photos: 30 → 15 days (from 4 December 2026) and ' +
        "visitors' identity: 365 → 400 days.",
    );
    const unchanged = {
      ...changed,
      detail: { documentsDays: '30→30', identityDays: '365→365', noticeChanged: false },
    };
    expect(auditSentence(unchanged, fr, 'fr')).toBe(
      'Séverine Kouamé a enregistré les durées de conservation sans les changer.',
    );
    const notice = { ...unchanged, detail: { ...unchanged.detail, noticeChanged: true } };
    expect(auditSentence(notice, fr, 'fr')).toBe(
      "Séverine Kouamé a modifié les durées de conservation : texte d'information modifié.",
    );
  });

  it("reads a company's changed fields and settings, a role change, a move and counts", () => {
    const company = entry('company.updated', {
      subject_type: 'company',
      subject_name: 'Demo SA',
      subject_state: 'present',
      detail: {
        fields: ['address', 'arrivalEarlyMinutes', 'kioskEmailEnabled'],
        arrivalEarlyMinutes: '0→15',
        kioskEmailEnabled: 'false→true',
      },
    });
    expect(auditSentence(company, fr, 'fr')).toBe(
      "Séverine Kouamé a modifié la fiche de l'entreprise Demo SA : adresse, " +
        'arrivée anticipée : 0 min → 15 min et présence par e-mail à la borne : désactivée → activée.',
    );
    expect(auditSentence({ ...company, detail: { fields: [] } }, en, 'en')).toBe(
      'Séverine Kouamé saved the record of the company Demo SA without changing it.',
    );
    const role = entry('user.role_changed', {
      subject_type: 'user',
      subject_name: "Koffi N'Guessan",
      subject_state: 'present',
      detail: { fromRole: 'ROLE_EMPLOYEE', toRole: 'ROLE_SUPERVISOR', movedFrom: 'x' },
      other_company_name: 'Filiale Nord',
    });
    expect(auditSentence(role, fr, 'fr')).toBe(
      "Séverine Kouamé a changé le rôle de Koffi N'Guessan : Employé (accueil) → Superviseur. " +
        'Le compte a été transféré depuis Filiale Nord.',
    );
    expect(auditSentence({ ...role, other_company_name: null }, en, 'en')).toBe(
      "Séverine Kouamé changed the role of Koffi N'Guessan: Employee (front desk) → Supervisor. " +
        'The account was moved here from another company.',
    );
    const rollCall = entry('roll_call.started', { detail: { roll_call_id: 'r', people: 1 } });
    expect(auditSentence(rollCall, fr, 'fr')).toBe(
      "Séverine Kouamé a lancé un appel d'évacuation : 1 personne sur place.",
    );
    expect(auditSentence({ ...rollCall, detail: { people: 4 } }, en, 'en')).toBe(
      'Séverine Kouamé started an evacuation roll call: 4 people on site.',
    );
    const erased = entry('person.erased', {
      subject_type: 'visitor',
      subject_state: 'gone',
      detail: { documents: 1, requests: 2, checks: 3, mails: 0, records: 2 },
    });
    expect(auditSentence(erased, fr, 'fr')).toBe(
      "Séverine Kouamé a effacé toutes les données d'une personne : " +
        'pièces : 1, demandes : 2, passages : 3 et mails : 0.',
    );
  });
  it("says a site's change (issue 28): its name, and a setting before → after", () => {
    const updated = entry('site.updated', {
      subject_type: 'site',
      subject_id: 's',
      subject_name: 'Nouméa',
      subject_state: 'present',
      detail: {
        fields: ['timezone', 'dayEnd', 'address'],
        timezone: 'Europe/Paris→Pacific/Noumea',
        dayEnd: '23:59→18:00',
      },
    });
    expect(auditSentence(updated, fr, 'fr')).toBe(
      'Séverine Kouamé a modifié le site « Nouméa » : fuseau horaire : Europe/Paris → Pacific/Noumea, fin de journée : 23:59 → 18:00 et adresse.',
    );
    expect(auditSentence(updated, en, 'en')).toBe(
      'Séverine Kouamé edited the site “Nouméa”: time zone: Europe/Paris → Pacific/Noumea, end of day: 23:59 → 18:00, and address.',
    );
    const archived = { ...updated, action: 'site.archived', detail: null };
    expect(auditSentence(archived, fr, 'fr')).toBe('Séverine Kouamé a archivé le site « Nouméa ».');
    const gone = { ...archived, action: 'site.restored', subject_state: 'gone' as const };
    expect(auditSentence(gone, en, 'en')).toBe(
      'Séverine Kouamé restored this site (since deleted).',
    );
  });
});
