import type { Company, CompanyListItem } from '@sesame/shared';
import type { FileUrls } from '../files/urls';
import { qrTargets } from '../qr/qr';
import type { CompanyRow } from './service';

export interface CompanyPresenterContext {
  publicUrl: string;
  fileUrls: FileUrls;
}

export function companyQrImageUrl(slug: string): string {
  return `/api/public/qrcode-link/qrcode-${slug}.png`;
}

export function presentCompany(row: CompanyRow, ctx: CompanyPresenterContext): Company {
  return {
    ...presentListedCompany(row, ctx),
    description: row.description,
    member_count: row.memberCount,
    number_of_employee: row.numberOfEmployee,
    email: row.email,
    phone_number: row.phoneNumber,
    id_number: row.idNumber,
    point_contact: row.pointContact,
    company_field: row.companyField,
    country: row.country,
    city: row.city,
    state: row.state,
    title: row.title,
    address: row.address,
    zipcode: row.zipcode,
    timezone: row.timezone,
    arrival_early_minutes: row.arrivalEarlyMinutes,
    day_end: row.dayEnd,
    kiosk_email_enabled: row.kioskEmailEnabled,
    created_at: row.createdAt.toISOString(),
  };
}

/**
 * What anyone may read of a company (ARCHITECTURE §6 public fields): enough for the
 * home page, the forms and the printed QR poster; its time zone dates the forms.
 */
export function presentPublicCompany(row: CompanyRow, ctx: CompanyPresenterContext) {
  return { ...presentListedCompany(row, ctx), timezone: row.timezone };
}

/**
 * A company in the list of a role that sees every company but may update only its
 * own (spec §6 manager, super admin): the public fields, nothing else.
 */
export function presentListedCompany(
  row: CompanyRow,
  ctx: CompanyPresenterContext,
): CompanyListItem {
  return {
    id: row.id,
    name: row.name,
    slug: row.slug,
    logo: row.logoStoredName,
    logo_url: ctx.fileUrls.logo(row.logoStoredName),
    link: qrTargets.companyRequestMeeting(ctx.publicUrl, row.slug),
    qrcode_url: companyQrImageUrl(row.slug),
  };
}
