/**
 * Spec §8 company create and update: saving, the status-dependent text; a refused
 * logo (413, 415) in the server's words, on the logo field; 'Une erreur est survenue
 * lors de l'enregistrement de l'entreprise.' when the server cannot be reached.
 */
import { useTranslation } from '../../../lib/i18n';
import { reachesCompany, type Company } from '@sesame/shared';
import type { SaveFailure } from '../../../lib/use-save';
import { ApiError } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { specificMessage, statusSentence } from '../../../lib/failure';

const SPEC_STATUSES = [400, 401, 403, 404, 500];

/** A failed save → the banner and the fields' messages. */
export function useCompanyFailure() {
  const { t } = useTranslation('companies');
  return (error: unknown): SaveFailure => {
    if (!(error instanceof ApiError) || error.status === 0) {
      return { feedback: { color: 'red', title: t('status.saveFailed') }, fieldErrors: {} };
    }
    const fieldErrors = { ...error.errors };
    if (error.status === 413 || error.status === 415) {
      fieldErrors.logo = error.serverMessage ?? t('status.other', { status: error.status });
      return { feedback: { color: 'red', title: fieldErrors.logo }, fieldErrors };
    }
    const title = statusSentence(t, 'status', SPEC_STATUSES, error.status);
    return { feedback: { color: 'red', title, detail: specificMessage(error) }, fieldErrors };
  };
}

/** After a 401 the person signs in again: the root, after the delay. */
export const signInAgain = (error: unknown) =>
  error instanceof ApiError && error.status === 401 ? '/' : undefined;

/**
 * A loaded company as an edit form needs it: only when the viewer may update it, by the
 * matrix the server applies (`reachesCompany(role, 'companies.update', ...)`). Anyone else
 * reads its public fields at most, and the save would be the server's 404: `unreachable`
 * says so before a form is shown, and the refusal is the 404's sentence.
 */
export function useEditableCompany(query: {
  isPending: boolean;
  error: unknown;
  data: Company | undefined;
}) {
  const { t } = useTranslation('companies');
  const { user, role } = useAuth();
  const reachable =
    !!query.data &&
    !!user &&
    !!role &&
    reachesCompany(role, 'companies.update', user.company_id, query.data.id);
  const company = reachable ? query.data : undefined;
  const missing = query.error instanceof ApiError && query.error.status === 404;
  return {
    company,
    /** Unknown, or not this viewer's to edit: the page is 'Page introuvable'. */
    unreachable: missing || (!!query.data && !reachable),
    query: {
      isPending: query.isPending,
      isError: !query.isPending && !company,
      error: query.error,
      data: company,
    },
    refusal: (error: unknown) => {
      if (!(error instanceof ApiError)) return t('status.404');
      return error.status === 0 ? null : statusSentence(t, 'status', SPEC_STATUSES, error.status);
    },
  };
}
