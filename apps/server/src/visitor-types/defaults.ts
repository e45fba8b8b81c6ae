/**
 * The four visitor types every site starts with (issue 31): written with the site, by the
 * company's creation and by a new site alike (migration 0029 gave them to the sites that
 * existed). 'Visiteur' asks what the spec's visitor form always asked, so a site that adds
 * no type of its own changes nothing.
 */
import type { VisitorTypeField } from '@sesame/shared';
import type { Db } from '../db/client';
import { visitorTypes } from '../db/schema';

interface DefaultType {
  nameFr: string;
  nameEn: string;
  color: string;
  requiredFields: VisitorTypeField[];
  hostApproval: boolean;
}

export const DEFAULT_VISITOR_TYPES: readonly DefaultType[] = [
  {
    nameFr: 'Visiteur',
    nameEn: 'Visitor',
    color: '#1971C2',
    requiredFields: ['organisation', 'phone', 'id_number', 'id_document'],
    hostApproval: true,
  },
  {
    nameFr: 'Prestataire',
    nameEn: 'Contractor',
    color: '#E8590C',
    requiredFields: ['organisation', 'phone', 'id_number', 'id_document'],
    hostApproval: true,
  },
  {
    nameFr: "Entretien d'embauche",
    nameEn: 'Job interview',
    color: '#2F9E44',
    requiredFields: ['phone'],
    hostApproval: true,
  },
  // A courier leaves a parcel at the desk: let in without waiting for anyone's answer.
  {
    nameFr: 'Livraison',
    nameEn: 'Delivery',
    color: '#868E96',
    requiredFields: ['organisation'],
    hostApproval: false,
  },
];

/** Writes the default types of a new site, in the caller's transaction. */
export async function insertDefaultVisitorTypes(
  tx: Db,
  companyId: string,
  siteId: string,
): Promise<void> {
  await tx
    .insert(visitorTypes)
    .values(
      DEFAULT_VISITOR_TYPES.map((type, position) => ({ ...type, companyId, siteId, position })),
    );
}
