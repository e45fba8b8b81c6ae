/**
 * Issue 27: the privacy notice comes in the form's language. The English form read the French
 * notice: a visitor accepted a text they may not read. The company keeps its own text in each
 * language; without one, the default text is filled in that language.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { companies } from '../src/db/schema';
import { as, tokenFor, useTestApp } from './helpers/app';
import { testDatabaseKind } from './helpers/db';
import { buildCompany, buildUser } from './helpers/factories';

describe(`the privacy notice in the form's language (${testDatabaseKind})`, () => {
  const ctx = useTestApp();
  const read = (slug: string, query = '') =>
    ctx.app.inject({ method: 'GET', url: `/api/public/privacy-notice/${slug}${query}` });

  it('gives the default text in each language, then the company’s own text in each', async () => {
    const company = await buildCompany(ctx.db, { retentionDocumentsDays: 12 });
    expect((await read(company.slug)).json().notice).toContain(
      'supprimées 12 jours après la visite',
    );
    const english = (await read(company.slug, '?lang=en')).json().notice as string;
    expect(english).toContain('deleted 12 days after the visit');
    expect(english).not.toMatch(/supprimées|visite/);
    expect((await read(company.slug, '?lang=de')).statusCode).toBe(400);

    const manager = await buildUser(ctx.db, { company, role: 'ROLE_MANAGER' });
    const call = as(ctx.app, await tokenFor(ctx.app, manager.email));
    const current = (
      await call({ method: 'GET', url: `/api/company/${company.id}/privacy` })
    ).json().data as Record<string, unknown>;
    expect(current.notice_text_en).toBe(english);
    const saved = await call({
      method: 'PUT',
      url: `/api/company/${company.id}/privacy`,
      payload: {
        documents_days: current.documents_days,
        identity_days: current.identity_days,
        checks_days: current.checks_days,
        audit_days: current.audit_days,
        privacy_notice: 'Notre texte.',
        privacy_notice_en: 'Our own text.',
      },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().data).toMatchObject({
      privacy_notice: 'Notre texte.',
      privacy_notice_en: 'Our own text.',
      notice_text: 'Notre texte.',
      notice_text_en: 'Our own text.',
    });
    expect((await read(company.slug)).json().notice).toBe('Notre texte.');
    expect((await read(company.slug, '?lang=en')).json().notice).toBe('Our own text.');

    // An English text emptied again: the default English text, not the French one.
    await ctx.db
      .update(companies)
      .set({ privacyNoticeEn: null })
      .where(eq(companies.id, company.id));
    expect((await read(company.slug, '?lang=en')).json().notice).toBe(english);

    // The English text follows the same line rule as the French one.
    const refused = await call({
      method: 'PUT',
      url: `/api/company/${company.id}/privacy`,
      payload: { ...current, privacy_notice_en: 'One\u0007bell' },
    });
    expect(refused.statusCode).toBe(400);
  });
});
