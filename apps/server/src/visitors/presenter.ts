/**
 * A visitor as `POST /api/visitor/create` answers it (spec §7): what they sent, without
 * their code (a meeting's code comes with the host's confirmation) nor their document.
 */
import type { VisitorCreated } from '@sesame/shared';
import type { VisitorRow } from './service';

export function presentCreatedVisitor(
  visitor: VisitorRow,
  company: { id: string; name: string; slug: string },
): VisitorCreated['data'] {
  return {
    visitor_id: visitor.id,
    firstname: visitor.firstname,
    lastname: visitor.lastname,
    email: visitor.email,
    organisation_name: visitor.organisationName,
    address: visitor.address,
    city: visitor.city,
    state: visitor.state,
    country: visitor.country,
    zipcode: visitor.zipcode,
    request_date: visitor.requestDate,
    request_time: visitor.requestTime,
    company: { id: company.id, name: company.name, slug: company.slug },
  };
}
