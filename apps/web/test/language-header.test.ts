import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import { languageHeader } from '../src/lib/language';

describe('the language every /api call says', () => {
  it('is the interface’s: French by default, English once switched', async () => {
    expect(languageHeader()).toEqual({ 'accept-language': 'fr' });
    await i18next.init({ lng: 'en', resources: {} });
    expect(languageHeader()).toEqual({ 'accept-language': 'en' });
    await i18next.changeLanguage('en-GB');
    expect(languageHeader()).toEqual({ 'accept-language': 'en' });
    await i18next.changeLanguage('fr');
    expect(languageHeader()).toEqual({ 'accept-language': 'fr' });
  });
});
