/**
 * What the schemas cannot see of a company's logo: present, not empty, within its
 * size limit, an image type (the server checks the content again).
 */
import { LOGO_MAX_BYTES, LOGO_MEDIA_TYPES, isOneOf, megabytes } from '@sesame/shared';
import type { Translate } from '../../../lib/schema-errors';

/** The logo's limit, as the hint and the message quote it. */
export const LOGO_MO = megabytes(LOGO_MAX_BYTES);

export function logoProblem(logo: File | null, required: boolean, t: Translate) {
  if (!logo) {
    return required ? t('form.errors.required', { label: t('fields.logo') }) : undefined;
  }
  if (logo.size === 0) return t('form.errors.fileInvalid');
  if (logo.size > LOGO_MAX_BYTES) return t('form.errors.fileTooLarge', { mo: LOGO_MO });
  if (!isOneOf(LOGO_MEDIA_TYPES, logo.type)) {
    return t('form.errors.fileType');
  }
  return undefined;
}
