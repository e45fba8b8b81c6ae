import { describe, expect, it } from 'vitest';
import { languageHeader, readLanguageFrom } from '../src/lib/language';
import { Translator } from '../src/lib/translator';

describe('the language every /api call says', () => {
  it('is the interface’s: French by default, English once switched', async () => {
    expect(languageHeader()).toEqual({ 'accept-language': 'fr' });
    const translator = new Translator({
      language: 'en',
      fallbackLanguage: 'fr',
      defaultNamespace: 'common',
      load: () => Promise.resolve({}),
    });
    readLanguageFrom(() => translator.language);
    expect(languageHeader()).toEqual({ 'accept-language': 'en' });
    await translator.changeLanguage('en-GB');
    expect(languageHeader()).toEqual({ 'accept-language': 'en' });
    await translator.changeLanguage('fr');
    expect(languageHeader()).toEqual({ 'accept-language': 'fr' });
  });
});
