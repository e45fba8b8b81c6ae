/**
 * The interface's words (lib/translator.ts, which replaced i18next): what the screens rely
 * on, from a key to the text shown, and a language switch that never shows a key.
 */
import { describe, expect, it } from 'vitest';
import { Translator, type Words } from '../src/lib/translator';

const WORDS: Record<string, Record<string, Words>> = {
  fr: {
    common: {
      save: 'Enregistrer',
      delete: { confirm: 'Supprimer {{name}} ?' },
      onlyFrench: 'Seulement en français',
      audit: { actions: { 'document.viewed': "Pièce d'identité consultée" } },
    },
    onSite: {
      inside_one: '{{count}} personne sur site',
      inside_other: '{{count}} personnes sur site',
      columns: ['Nom', 'Arrivée'],
    },
  },
  en: {
    common: { save: 'Save', delete: { confirm: 'Delete {{name}}?' } },
    onSite: {
      inside_one: '{{count}} person on site',
      inside_other: '{{count}} people on site',
      columns: ['Name', 'Arrival'],
    },
  },
};

function translator(language = 'fr', asked: string[] = []) {
  return new Translator({
    language,
    fallbackLanguage: 'fr',
    defaultNamespace: 'common',
    load: (lng, ns) => {
      asked.push(`${lng}/${ns}`);
      const words = WORDS[lng]?.[ns];
      return words ? Promise.resolve(words) : Promise.reject(new Error(`no ${lng}/${ns}`));
    },
  });
}

async function ready(language: string, namespaces: string[]) {
  const tr = translator(language);
  await tr.ensure(namespaces);
  return tr;
}

describe('a key to the text shown', () => {
  it('reads nested keys in the default namespace, another one by prefix or option', async () => {
    const tr = await ready('fr', ['common', 'onSite']);
    expect(tr.t('save')).toBe('Enregistrer');
    expect(tr.t('delete.confirm', { name: 'Acme' })).toBe('Supprimer Acme ?');
    expect(tr.t('onSite:columns', { returnObjects: true })).toEqual(['Nom', 'Arrivée']);
    expect(tr.t('inside', { ns: 'onSite', count: 3 })).toBe('3 personnes sur site');
  });

  it('finds a key that holds a dot itself (an audit action)', async () => {
    const tr = await ready('fr', ['common']);
    expect(tr.t('audit.actions.document.viewed')).toBe("Pièce d'identité consultée");
    expect(tr.t('audit.actions.document')).toBe('audit.actions.document');
  });

  it('tries the hook’s namespaces in order, then a list of keys in order', async () => {
    const tr = await ready('fr', ['common', 'onSite']);
    const t = tr.fixedT(['onSite', 'common']);
    expect(t('save')).toBe('Enregistrer');
    expect(t(['missing.key', 'common:save'])).toBe('Enregistrer');
  });

  it('chooses the plural form by the language’s rules (French 0 is singular)', async () => {
    const fr = await ready('fr', ['onSite']);
    expect(fr.t('onSite:inside', { count: 0 })).toBe('0 personne sur site');
    expect(fr.t('onSite:inside', { count: 1 })).toBe('1 personne sur site');
    expect(fr.t('onSite:inside', { count: 2 })).toBe('2 personnes sur site');
    const en = await ready('en', ['onSite']);
    expect(en.t('onSite:inside', { count: 0 })).toBe('0 people on site');
    expect(en.t('onSite:inside', { count: 1 })).toBe('1 person on site');
  });

  it('falls back to French, then the default value, then the key; never to nothing', async () => {
    const tr = await ready('en', ['common']);
    await tr.ensure(['common'], 'fr');
    expect(tr.t('onlyFrench')).toBe('Seulement en français');
    expect(tr.t('audit.actions.unknown', { defaultValue: 'unknown' })).toBe('unknown');
    expect(tr.t('common:not.there')).toBe('not.there');
    // An object asked for as text shows its key, not "[object Object]".
    expect(tr.t('delete')).toBe('delete');
  });

  it('leaves a placeholder whose value is not given, and shows values as text', async () => {
    const tr = await ready('fr', ['common']);
    expect(tr.t('delete.confirm')).toBe('Supprimer {{name}} ?');
    expect(tr.t('delete.confirm', { name: 0 })).toBe('Supprimer 0 ?');
  });
});

describe('loading and switching', () => {
  it('asks once for a namespace however many screens want it, and again after a failure', async () => {
    const asked: string[] = [];
    const tr = translator('fr', asked);
    const first = tr.ensure(['onSite']);
    expect(tr.ensure(['onSite'])).toBe(first);
    await first;
    expect(tr.ensure(['onSite'])).toBeUndefined();
    expect(asked).toEqual(['fr/onSite']);

    await expect(tr.ensure(['qrUsers'])).rejects.toThrow('no fr/qrUsers');
    await expect(tr.ensure(['qrUsers'])).rejects.toThrow('no fr/qrUsers');
    expect(asked).toEqual(['fr/onSite', 'fr/qrUsers', 'fr/qrUsers']);
  });

  it('switches only once every namespace used so far is there in the new language', async () => {
    const asked: string[] = [];
    const tr = translator('fr', asked);
    await tr.ensure(['common', 'onSite']);
    const seen: string[] = [];
    tr.subscribe(() => seen.push(`${tr.language}: ${tr.t('onSite:inside', { count: 2 })}`));

    const switching = tr.changeLanguage('en');
    expect(tr.language).toBe('fr');
    await switching;
    expect(asked).toEqual(['fr/common', 'fr/onSite', 'en/common', 'en/onSite']);
    expect(seen).toEqual(['en: 2 people on site']);
  });

  it('stays in its language when the new one cannot load', async () => {
    const tr = translator('fr');
    await tr.ensure(['common']);
    await expect(tr.changeLanguage('de')).rejects.toThrow('no de/common');
    expect(tr.language).toBe('fr');
    expect(tr.t('save')).toBe('Enregistrer');
  });
});
