/**
 * Invitations at the front desk (issue 30), in Chromium: a host invites a group of three and
 * one visitor for today; the desk's 'Attendus aujourd'hui' shows the group as one, under
 * 'Groupe de 3 · invité par Awa Koné', and each row 'Invité(e) par Awa Koné'. An invitation
 * made while the page is open appears without a reload (the live feed's 'invitation' news).
 * axe on the tab, a screenshot to look at.
 */
import { describe, expect, it } from 'vitest';
import { axeFindings, report } from './support/axe';
import { screenshot } from './support/browser';
import { demoSite } from './support/kiosk';
import { apiToken } from './support/server';
import { useSesame } from './support/sesame';

const HOST = {
  name: 'Koné',
  firstname: 'Awa',
  email: 'awa.kone.desk@example.com',
  password: 'Host-Password-2026',
  title: 'Cheffe de projet',
  role: 'ROLE_USER',
};
const DESK = {
  name: 'Accueil',
  firstname: 'Aminata',
  email: 'accueil.invitations@example.com',
  password: 'Accueil-Password-2026',
  title: 'Hôtesse',
  role: 'ROLE_EMPLOYEE',
};

describe('invitations in expected today', () => {
  const sesame = useSesame({ staff: [HOST, DESK], timeout: 90_000 });

  it('shows an invited group as one, who invited each, and a new invitation live', async () => {
    const { server } = sesame;
    const site = await demoSite(server, await apiToken(server));
    const hostToken = await apiToken(server, HOST.email, HOST.password);
    // Today in the site's zone, as the form writes it.
    const today = new Intl.DateTimeFormat('fr-FR', {
      timeZone: site.timezone,
      day: '2-digit',
      month: '2-digit',
      year: 'numeric',
    }).format(new Date());
    const invite = async (time: string, visitors: Record<string, string>[]) => {
      const res = await fetch(`${server.url}/api/invitations`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${hostToken}` },
        body: JSON.stringify({
          site_id: site.siteId,
          date: today,
          time,
          end_time: '23:59',
          reason: 'Comité de pilotage',
          visitors,
        }),
      });
      expect(res.status, await res.clone().text()).toBe(201);
    };
    await invite('23:50', [
      {
        firstname: 'Ama',
        lastname: 'Adjoua',
        email: 'ama.adjoua@example.com',
        organisation: 'Orange',
      },
      { firstname: 'Ali', lastname: 'Coulibaly', email: 'ali.coulibaly@example.com' },
      { firstname: 'Éric', lastname: 'Zadi', phone: '+225 07 07 07 07 07' },
    ]);
    await invite('23:40', [
      { firstname: 'Fatou', lastname: 'Diallo', email: 'fatou.diallo@example.com' },
    ]);

    const desk = await sesame.signedIn(DESK.email, DESK.password, { bypassCSP: true });
    await desk.goto('/demo/on-site');
    await desk.getByRole('heading', { name: 'Sur place' }).waitFor();
    await desk.locator('[data-live="live"]').waitFor();
    await desk.getByTestId('tab-expected').click();

    const group = desk.getByRole('region', { name: 'Groupe de 3 · invité par Awa Koné' });
    await group.waitFor();
    const inGroup = group.getByTestId('expected-row');
    expect(await inGroup.count()).toBe(3);
    for (const name of ['Ama Adjoua', 'Ali Coulibaly', 'Éric Zadi']) {
      await inGroup.filter({ hasText: name }).getByText('Invité(e) par Awa Koné').waitFor();
    }
    const alone = desk.getByTestId('expected-row').filter({ hasText: 'Fatou Diallo' });
    await alone.getByText('Invité(e) par Awa Koné').waitFor();
    expect(await group.getByText('Fatou Diallo').count()).toBe(0);

    const findings = await axeFindings(desk, '/demo/on-site (attendus, invitations)');
    await screenshot(desk, 'on-site-invitations');
    expect(findings, report(findings)).toEqual([]);

    // Invited while the desk looks: the list hears it and shows them, no reload.
    await invite('23:55', [
      { firstname: 'Salif', lastname: 'Ouattara', email: 'salif@example.com' },
    ]);
    await desk
      .getByTestId('expected-row')
      .filter({ hasText: 'Salif Ouattara' })
      .waitFor({ timeout: 5_000 });
  });
});
