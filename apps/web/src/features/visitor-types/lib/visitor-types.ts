/**
 * The visitor types screen's plain logic (issue 31): a type and a document as their forms'
 * values and back (the preview of a document's Markdown is the visitors' own, components/signing).
 * No React, no DOM: `apps/web/test/visitor-types.test.ts`.
 */
import {
  SIGNATURE_VALIDITIES,
  VISITOR_TYPE_FIELDS,
  type SignatureValidity,
  type SiteDocument,
  type VisitorType,
  type VisitorTypeField,
} from '@sesame/shared';

export const DEFAULT_TYPE_COLOR = '#1C7ED6';

/** The colours offered beside the picker (each readable under white text on a badge band). */
export const TYPE_SWATCHES = [
  '#1C7ED6',
  '#2F9E44',
  '#E8590C',
  '#C2255C',
  '#6741D9',
  '#0B7285',
  '#5C940D',
  '#495057',
] as const;

export interface TypeDocumentValue {
  document_id: string;
  validity: SignatureValidity;
  /** Text as typed ('' unless 'days'). */
  validity_days: string;
}

export interface VisitorTypeValues {
  site_id: string;
  name_fr: string;
  name_en: string;
  color: string;
  required_fields: VisitorTypeField[];
  host_approval: boolean;
  auto_check_out_at: string;
  documents: TypeDocumentValue[];
}

export function typeValues(type: VisitorType | undefined, siteId: string): VisitorTypeValues {
  return {
    site_id: type?.site_id ?? siteId,
    name_fr: type?.name_fr ?? '',
    name_en: type?.name_en ?? '',
    color: type?.color ?? DEFAULT_TYPE_COLOR,
    required_fields: type ? [...type.required_fields] : [],
    host_approval: type?.host_approval ?? true,
    auto_check_out_at: type?.auto_check_out_at ?? '',
    documents: (type?.documents ?? []).map((doc) => ({
      document_id: doc.document_id,
      validity: doc.validity,
      validity_days: doc.validity_days === null ? '' : String(doc.validity_days),
    })),
  };
}

/** The values as the schema's input: fields in the forms' order, a day count only with 'days'. */
export function typeInput(values: VisitorTypeValues) {
  return {
    site_id: values.site_id,
    name_fr: values.name_fr,
    name_en: values.name_en,
    color: values.color.trim(),
    required_fields: VISITOR_TYPE_FIELDS.filter((f) => values.required_fields.includes(f)),
    host_approval: values.host_approval,
    auto_check_out_at: values.auto_check_out_at.trim() === '' ? null : values.auto_check_out_at,
    documents: values.documents.map((doc) => ({
      document_id: doc.document_id,
      validity: doc.validity,
      validity_days: doc.validity === 'days' ? doc.validity_days.trim() || null : null,
    })),
  };
}

/** A document ticked for the type: added with 'visit' (each visit), or taken off. */
export function toggleDocument(
  documents: readonly TypeDocumentValue[],
  documentId: string,
  on: boolean,
): TypeDocumentValue[] {
  const without = documents.filter((doc) => doc.document_id !== documentId);
  return on
    ? [...without, { document_id: documentId, validity: 'visit', validity_days: '' }]
    : without;
}

export const VALIDITY_OPTIONS: readonly SignatureValidity[] = SIGNATURE_VALIDITIES;

export interface DocumentValues {
  site_id: string;
  title_fr: string;
  title_en: string;
  body_fr: string;
  body_en: string;
}

export function documentValues(doc: SiteDocument | undefined, siteId: string): DocumentValues {
  return {
    site_id: doc?.site_id ?? siteId,
    title_fr: doc?.title_fr ?? '',
    title_en: doc?.title_en ?? '',
    body_fr: doc?.body_fr ?? '',
    body_en: doc?.body_en ?? '',
  };
}

/** An edit writes a new version when a title or a text changed (the server's rule). */
export function makesNewVersion(doc: SiteDocument, values: DocumentValues): boolean {
  return (
    doc.title_fr !== values.title_fr.trim() ||
    doc.title_en !== values.title_en.trim() ||
    doc.body_fr !== values.body_fr ||
    doc.body_en !== values.body_en
  );
}
