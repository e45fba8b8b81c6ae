/**
 * The app's translator as the screens use it: `useTranslation` (lib/i18n.ts) over the real
 * catalogues (src/locales), rendered. What it proves: a count chooses its plural form by
 * each language's rules (French says "0 membre", English "0 members"); a screen whose words
 * are not there yet waits for them (Suspense, or `ready` false) and never shows a key; a
 * language switch renders every screen again in the new language, once its words are all
 * there; a key missing in English shows the French words, one missing everywhere shows the
 * key itself, or the screen's default, never nothing.
 */
import { Suspense, useLayoutEffect } from 'react';
import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import i18n, { useTranslation, withFrenchWords } from '../src/lib/i18n';

/** Every text the counts were shown with (committed), and each time the loader was shown. */
let rendered: string[] = [];
let loaderShown = 0;

/** The companies list's member count (CompanyListPage), a namespace loaded on demand. */
function MemberCount({ count }: { count: number }) {
  const { t } = useTranslation('companies');
  const text = t('list.memberCount', { count });
  useLayoutEffect(() => void rendered.push(text));
  return <p data-testid={`count-${count}`}>{text}</p>;
}

function Loader() {
  loaderShown++;
  return <p>chargement</p>;
}

function Counts() {
  return (
    <Suspense fallback={<Loader />}>
      {[0, 1, 2, 1_000_000].map((count) => (
        <MemberCount key={count} count={count} />
      ))}
    </Suspense>
  );
}

const shown = (count: number) => screen.getByTestId(`count-${count}`).textContent;

beforeEach(() => {
  rendered = [];
  loaderShown = 0;
});

afterEach(async () => {
  if (i18n.language !== 'fr') await act(() => i18n.changeLanguage('fr'));
});

describe('the translator on screen (useTranslation)', () => {
  it('waits for a namespace loaded on demand, then says each count with the language’s plural', async () => {
    expect(i18n.has('fr', 'companies')).toBe(false);
    await act(async () => {
      render(<Counts />);
    });
    // Suspended until the words arrived, then rendered again.
    await act(async () => {
      await i18n.ensure(['companies']);
    });
    expect(loaderShown).toBeGreaterThan(0);
    // Never a key in place of the words, not even for one render.
    expect(rendered.filter((text) => text.includes('memberCount'))).toEqual([]);
    // French: 0 and 1 are singular. An exact million is French's `many` form, which no
    // catalogue writes: it reads as `_other` (it showed the key before issue 36).
    expect(shown(0)).toBe('0 membre');
    expect(shown(1)).toBe('1 membre');
    expect(shown(2)).toBe('2 membres');
    expect(shown(1_000_000)).toBe('1000000 membres');
  });

  it('switches every screen to English once its words are there, and back', async () => {
    await act(async () => {
      render(<Counts />);
    });
    const switching = i18n.changeLanguage('en');
    // The French words stay until the English ones have arrived.
    expect(shown(2)).toBe('2 membres');
    await act(() => switching);
    expect(shown(0)).toBe('0 members');
    expect(shown(1)).toBe('1 member');
    expect(shown(2)).toBe('2 members');
    expect(document.documentElement.lang).toBe('en');
    expect(localStorage.getItem('lang')).toBe('en');

    await act(() => i18n.changeLanguage('fr'));
    expect(shown(0)).toBe('0 membre');
    expect(document.documentElement.lang).toBe('fr');
  });

  it('renders at once with `ready` false when the screen asks not to suspend', async () => {
    const seen: string[] = [];
    function Badge() {
      const { t, ready } = useTranslation('badges', { useSuspense: false });
      seen.push(ready ? 'ready' : 'waiting');
      return ready ? <p>{t('button', { defaultValue: '?' })}</p> : null;
    }
    const { container } = render(<Badge />);
    expect(container.textContent).toBe('');
    await act(async () => {
      await i18n.ensure(['badges']);
    });
    expect(seen[0]).toBe('waiting');
    expect(seen.at(-1)).toBe('ready');
  });

  it('shows French for a key English lacks, then the default, then the key; never nothing', async () => {
    // A screen's words that only exist in French (as a new key before its translation).
    withFrenchWords({ draft: { onlyFrench: 'Seulement en français', n: { inside: 'dedans' } } });
    function Missing() {
      const { t } = useTranslation(['draft', 'common']);
      return (
        <ul>
          <li>{t('onlyFrench')}</li>
          <li>{t('not.there')}</li>
          <li>{t('draft:nothing.here')}</li>
          <li>{t('not.there', { defaultValue: 'par défaut' })}</li>
          {/* An object asked for as text shows its key, not "[object Object]". */}
          <li>{t('n')}</li>
          {/* A list of keys: the first found. */}
          <li>{t(['not.there', 'common:close'])}</li>
        </ul>
      );
    }
    await act(async () => {
      render(
        <Suspense fallback={null}>
          <Missing />
        </Suspense>,
      );
    });
    const items = () => screen.getAllByRole('listitem').map((item) => item.textContent);
    expect(items()).toEqual([
      'Seulement en français',
      'not.there',
      'nothing.here',
      'par défaut',
      'n',
      'Fermer',
    ]);
    await act(() => i18n.changeLanguage('en'));
    expect(items()).toEqual([
      'Seulement en français',
      'not.there',
      'nothing.here',
      'par défaut',
      'n',
      'Close',
    ]);
  });
});
