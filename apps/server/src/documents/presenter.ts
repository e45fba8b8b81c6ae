/** A site's document to sign on the wire (issue 31), as the staff screens read it. */
import type { SiteDocument } from '@sesame/shared';
import type { DocumentVersionRow, DocumentWithVersions } from './service';

export function presentDocument({
  document,
  current,
  versions,
}: DocumentWithVersions): SiteDocument {
  return {
    id: document.id,
    site_id: document.siteId,
    version: document.currentVersion,
    title_fr: current.titleFr,
    title_en: current.titleEn,
    body_fr: current.bodyFr,
    body_en: current.bodyEn,
    archived: document.archivedAt !== null,
    versions: versions.map((v) => ({ version: v.version, created_at: v.createdAt.toISOString() })),
  };
}

/** One version of a document, exactly as it was written. */
export function presentVersion(row: DocumentVersionRow) {
  return {
    version: row.version,
    title_fr: row.titleFr,
    title_en: row.titleEn,
    body_fr: row.bodyFr,
    body_en: row.bodyEn,
    created_at: row.createdAt.toISOString(),
  };
}
