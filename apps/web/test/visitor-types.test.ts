import { describe, expect, it } from 'vitest';
import { visitorTypeInputSchema, type SiteDocument, type VisitorType } from '@sesame/shared';
import {
  makesNewVersion,
  toggleDocument,
  typeInput,
  typeValues,
  documentValues,
} from '../src/features/visitor-types/lib/visitor-types';

const SITE = '0b7f4a1e-2c3d-4e5f-8a9b-0c1d2e3f4a5b';
const DOC = '1c8f4a1e-2c3d-4e5f-8a9b-0c1d2e3f4a5b';

const contractor: VisitorType = {
  id: 't1',
  site_id: SITE,
  name_fr: 'Prestataire',
  name_en: 'Contractor',
  color: '#E8590C',
  required_fields: ['organisation', 'id_number'],
  host_approval: false,
  auto_check_out_at: '18:30',
  position: 1,
  archived: false,
  documents: [
    {
      document_id: DOC,
      version: 3,
      title_fr: 'Consignes',
      title_en: 'Rules',
      validity: 'days',
      validity_days: 30,
    },
  ],
};

describe('a visitor type as the form reads it', () => {
  it('reads a type into values and back into an input the shared schema accepts', () => {
    const values = typeValues(contractor, 'other');
    expect(values.site_id).toBe(SITE);
    expect(values.documents).toEqual([{ document_id: DOC, validity: 'days', validity_days: '30' }]);
    const parsed = visitorTypeInputSchema.parse(typeInput(values));
    expect(parsed).toMatchObject({
      name_en: 'Contractor',
      required_fields: ['organisation', 'id_number'],
      host_approval: false,
      auto_check_out_at: '18:30',
      documents: [{ document_id: DOC, validity: 'days', validity_days: 30 }],
    });
  });

  it('starts a new type at the site, host approval on, no field, no document', () => {
    const values = typeValues(undefined, SITE);
    expect(values).toMatchObject({ site_id: SITE, host_approval: true, required_fields: [] });
    expect(typeInput(values).auto_check_out_at).toBeNull();
  });

  it('keeps the fields in the forms’ order and a day count only with "days"', () => {
    const input = typeInput({
      ...typeValues(undefined, SITE),
      required_fields: ['photo', 'organisation'],
      documents: [{ document_id: DOC, validity: 'visit', validity_days: '12' }],
    });
    expect(input.required_fields).toEqual(['organisation', 'photo']);
    expect(input.documents[0]!.validity_days).toBeNull();
  });

  it('ticks a document on with "each visit", and off', () => {
    const on = toggleDocument([], DOC, true);
    expect(on).toEqual([{ document_id: DOC, validity: 'visit', validity_days: '' }]);
    expect(toggleDocument(on, DOC, false)).toEqual([]);
  });
});

describe('a document’s edit', () => {
  const doc: SiteDocument = {
    id: DOC,
    site_id: SITE,
    version: 2,
    title_fr: 'NDA',
    title_en: 'NDA',
    body_fr: 'Texte',
    body_en: 'Text',
    archived: false,
    versions: [],
  };
  it('makes a new version only when a title or a text changes', () => {
    expect(makesNewVersion(doc, documentValues(doc, SITE))).toBe(false);
    expect(makesNewVersion(doc, { ...documentValues(doc, SITE), body_en: 'Text 2' })).toBe(true);
    expect(makesNewVersion(doc, { ...documentValues(doc, SITE), title_fr: ' NDA ' })).toBe(false);
  });
});
