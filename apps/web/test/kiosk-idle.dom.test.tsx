/**
 * The kiosk's idle reset (issue 29) on the real page (features/kiosk/KioskPage.tsx), on a
 * paired tablet, with fake timers: after the kiosk's idle time without a touch or a key the
 * screen goes back to the welcome screen, everything the visitor typed discarded and the
 * kiosk's first language back; each touch starts the count again.
 * (The idle timer's own logic — pause, resume, stop — is test/kiosk.test.ts.)
 */
import { act, fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { KioskConfig } from '@sesame/shared';
import { CONFIG_KEY, TOKEN_KEY } from '../src/features/kiosk/api';
import KioskPage from '../src/features/kiosk/KioskPage';
import i18n from '../src/lib/i18n';
import { renderInApp } from './setup/render';

const IDLE_SECONDS = 60;

const CONFIG: KioskConfig = {
  id: 'kiosk-1',
  name: 'Hall',
  company: { name: 'Acme', slug: 'acme', logo: null },
  site: { name: 'Lyon', timezone: 'Europe/Paris' },
  languages: ['fr', 'en'],
  ask_photo: false,
  print_badge: false,
  idle_seconds: IDLE_SECONDS,
  host_wait_seconds: 120,
  badge_size: 'A6',
  server_prints: false,
};

/** The kiosk's server: its settings, and no expected visit by that name. */
function kioskServer(url: string): Promise<Response> {
  const json = (body: object) =>
    Promise.resolve(
      new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } }),
    );
  if (url === '/api/kiosk/me') return json({ data: CONFIG });
  if (url.startsWith('/api/kiosk/expected')) return json({ data: [] });
  return new Promise(() => undefined);
}

const heading = () => screen.getByRole('heading', { level: 1 }).textContent;
const seconds = (n: number) =>
  act(async () => {
    await vi.advanceTimersByTimeAsync(n * 1000);
  });

async function openKiosk() {
  await act(async () => {
    renderInApp(<KioskPage />);
  });
  expect(heading()).toBe('Bienvenue');
}

/**
 * A tap as a tablet gives it (the idle timer hears `pointerdown`). fireEvent, not user-event:
 * Testing Library's async wrapper waits on a real timer, which fake timers hold.
 */
function tap(name: string) {
  const button = screen.getByRole('button', { name });
  fireEvent.pointerDown(button);
  fireEvent.click(button);
}

beforeEach(async () => {
  vi.useFakeTimers();
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) => kioskServer(url)),
  );
  localStorage.setItem(TOKEN_KEY, 'kiosk_token-0123456789');
  localStorage.setItem(CONFIG_KEY, JSON.stringify(CONFIG));
  if (i18n.language !== 'fr') await i18n.changeLanguage('fr');
});

describe('the kiosk’s idle reset', () => {
  it('goes back to the welcome screen after the idle time, with what was typed discarded', async () => {
    await openKiosk();
    tap('Je suis attendu(e)');
    expect(heading()).toBe('Vous êtes attendu(e)');
    const name = screen.getByLabelText('Votre nom', { exact: false });
    fireEvent.pointerDown(name);
    fireEvent.input(name, { target: { value: 'Dupont' } });
    await seconds(1);
    expect(screen.getByLabelText('Votre nom', { exact: false })).toHaveProperty('value', 'Dupont');

    await seconds(IDLE_SECONDS - 2);
    expect(heading()).toBe('Vous êtes attendu(e)');
    await seconds(1);
    expect(heading()).toBe('Bienvenue');

    // The next visitor finds nothing of the last one's.
    tap('Je suis attendu(e)');
    expect(screen.getByLabelText('Votre nom', { exact: false })).toHaveProperty('value', '');
  });

  it('starts the count again at each touch', async () => {
    await openKiosk();
    tap('Je pars');
    expect(heading()).toBe('Vous partez');
    await seconds(IDLE_SECONDS - 10);
    fireEvent.pointerDown(screen.getByRole('main'));
    await seconds(IDLE_SECONDS - 10);
    fireEvent.keyDown(document.body, { key: 'Tab' });
    await seconds(IDLE_SECONDS - 1);
    expect(heading()).toBe('Vous partez');
    await seconds(1);
    expect(heading()).toBe('Bienvenue');
  });

  it('stays on the welcome screen and gives the kiosk’s first language back', async () => {
    await openKiosk();
    tap('EN');
    await act(async () => {
      await vi.waitFor(() => expect(i18n.language).toBe('en'));
    });
    expect(heading()).toBe('Welcome');
    await seconds(IDLE_SECONDS);
    await act(async () => {
      await vi.waitFor(() => expect(i18n.language).toBe('fr'));
    });
    expect(heading()).toBe('Bienvenue');
    // Nothing else happens after: one reset, not one per idle period.
    await seconds(IDLE_SECONDS * 3);
    expect(heading()).toBe('Bienvenue');
  });
});
