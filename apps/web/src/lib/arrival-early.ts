/**
 * The input of how early a visitor's code lets them in before their day starts (a company's
 * default, a site's own): whole minutes by 5, within the shared schema's bounds, which the
 * form's `form.arrivalEarlyHint` says.
 */
import { ARRIVAL_EARLY_MAX_MINUTES } from '@sesame/shared';
import type { TFunction } from './i18n';

export const arrivalEarlyInput = (t: TFunction) => ({
  type: 'number',
  inputMode: 'numeric',
  min: 0,
  max: ARRIVAL_EARLY_MAX_MINUTES,
  step: 5,
  description: t('form.arrivalEarlyHint', { max: ARRIVAL_EARLY_MAX_MINUTES }),
});
