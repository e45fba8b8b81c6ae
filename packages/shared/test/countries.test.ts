/**
 * Issue 18: countries are ISO codes, named by Intl in the reader's language; the server
 * reads a code or a French or English name (the spec's payloads send names).
 */
import { describe, expect, it } from 'vitest';
import {
  COUNTRY_CODES,
  COUNTRY_INVALID_MESSAGE,
  companyCreateSchema,
  countryCode,
  countryName,
  countryOptions,
  eventCreateSchema,
  visitorFormSchema,
} from '../src';

describe('countryCode', () => {
  it('reads a code in any case', () => {
    expect(countryCode('CI')).toBe('CI');
    expect(countryCode(' sn ')).toBe('SN');
  });

  it('reads a French or English name, without regard to case, accents, apostrophes or hyphens', () => {
    for (const written of [
      'Côte d’Ivoire',
      "Côte d'Ivoire",
      'Côte d’ivoire',
      "COTE D'IVOIRE",
      'cote-d’ivoire',
      'Ivory Coast',
    ]) {
      expect(countryCode(written), written).toBe('CI');
    }
    expect(countryCode('Allemagne')).toBe('DE');
    expect(countryCode('germany')).toBe('DE');
    expect(countryCode('Royaume-Uni')).toBe('GB');
    expect(countryCode('United Kingdom')).toBe('GB');
    expect(countryCode('Etats-Unis')).toBe('US');
  });

  it('reads the names of the former French list that Intl spells otherwise', () => {
    expect(countryCode('Birmanie')).toBe('MM');
    expect(countryCode('Myanmar')).toBe('MM');
    expect(countryCode('République démocratique du Congo')).toBe('CD');
    expect(countryCode('Congo')).toBe('CG');
    expect(countryCode('République tchèque')).toBe('CZ');
    expect(countryCode('Vatican')).toBe('VA');
    expect(countryCode('Kirghizistan')).toBe('KG');
    expect(countryCode('Palestine')).toBe('PS');
  });

  it('gives null for what names no country of the list', () => {
    expect(countryCode('Atlantide')).toBeNull();
    expect(countryCode('')).toBeNull();
    // A code outside the 195 (a territory) is not offered by the forms.
    expect(countryCode('GP')).toBeNull();
  });

  it('reads every code back from its own name, in French and in English', () => {
    for (const lang of ['fr', 'en']) {
      const wrong = COUNTRY_CODES.filter((code) => countryCode(countryName(code, lang)) !== code);
      expect(wrong, lang).toEqual([]);
    }
  });
});

describe('countryName and countryOptions', () => {
  it('names a code in the language asked; shows any other stored value as written', () => {
    expect(countryName('DE', 'fr')).toBe('Allemagne');
    expect(countryName('DE', 'en')).toBe('Germany');
    expect(countryName('Atlantide', 'en')).toBe('Atlantide');
    expect(countryName(null, 'fr')).toBe('');
  });

  it("puts Côte d'Ivoire first, the rest sorted by their name in the language", () => {
    for (const lang of ['fr', 'en']) {
      const options = countryOptions(lang);
      expect(options).toHaveLength(195);
      expect(options[0]).toEqual({ value: 'CI', label: countryName('CI', lang) });
      const rest = options.slice(1).map((o) => o.label);
      expect(rest).toEqual([...rest].sort(new Intl.Collator(lang).compare));
    }
    // 'Égypte' sorts among the E in French, not after Z.
    const fr = countryOptions('fr').map((o) => o.value);
    expect(fr.indexOf('EG')).toBeLessThan(fr.indexOf('FR'));
  });
});

describe("the schemas' country fields", () => {
  it('store the code of a name, and refuse what names no country', () => {
    const event = {
      company_id: 'acme',
      name: 'Salon',
      location: 'Salle A',
      address_name: 'Plateau',
      date_event: '24/12/2030',
      time_event: '10:00',
    };
    const named = eventCreateSchema.safeParse({ ...event, country: "Côte d'Ivoire" });
    expect(named.success && named.data.country).toBe('CI');
    const blank = eventCreateSchema.safeParse({ ...event, country: '' });
    expect(blank.success && blank.data.country).toBe('');
    const unknown = eventCreateSchema.safeParse({ ...event, country: 'Atlantide' });
    expect(unknown.success).toBe(false);
    expect(unknown.error?.issues[0]).toMatchObject({
      path: ['country'],
      message: COUNTRY_INVALID_MESSAGE,
    });

    // The visitor form's whole check runs; its country issue or value is what is read here.
    const visitor = visitorFormSchema.safeParse({ country: 'sénégal' });
    expect(visitor.error?.issues.some((i) => i.path[0] === 'country')).toBe(false);
    const badVisitor = visitorFormSchema.safeParse({ country: 'Atlantide' });
    expect(badVisitor.error?.issues.find((i) => i.path[0] === 'country')?.message).toBe(
      COUNTRY_INVALID_MESSAGE,
    );

    const company = companyCreateSchema.shape.country.safeParse('Germany');
    expect(company.success && company.data).toBe('DE');
    expect(companyCreateSchema.shape.country.safeParse('').success).toBe(false);
  });
});
