/**
 * 'Éditer l'Entreprise' at /{domain}/edit-company/{company_edit} (slug or id; the
 * navbar's 'Modifier entreprise' for managers and supervisors): the name is
 * read-only, the logo optional. Success goes to the company list after 1.5 s. A company
 * the viewer may not update (another tenant's, for a one-company role) is 'Page introuvable'.
 */
import { Container } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n';
import { useParams } from 'react-router';
import { mayPerform } from '@sesame/shared';
import { useAuth } from '../../../lib/auth';
import { useSave } from '../../../lib/use-save';
import { NotFoundPage } from '../../../components/NotFoundPage';
import { PageTitle } from '../../../components/PageTitle';
import { QueryState } from '../../../components/QueryState';
import { useCompanyDetails, useUpdateCompany } from '../api/companies';
import { CompanyForm } from '../components/CompanyForm';
import { PrivacySection } from '../components/PrivacySection';
import { signInAgain, useCompanyFailure, useEditableCompany } from '../components/feedback';

export default function EditCompanyPage() {
  const { t } = useTranslation('companies');
  const { domain = '', company_edit: companyEdit = '' } = useParams();
  const { role } = useAuth();
  const loaded = useCompanyDetails(companyEdit);
  const editable = useEditableCompany(loaded);
  const mutation = useUpdateCompany();
  const company = editable.company;
  const save = useSave(
    (form: FormData) => mutation.mutateAsync({ id: company?.id ?? '', form }),
    useCompanyFailure(),
    {
      success: t('edit.updated'),
      then: `/${domain}/company-list`,
      goneAfter: signInAgain,
    },
  );

  // Another company's (or no company's) edit page: no form whose save can only fail.
  if (editable.unreachable) return <NotFoundPage />;

  return (
    <Container size="md" py="lg">
      <PageTitle>{t('edit.title')}</PageTitle>
      <QueryState
        query={editable.query}
        errorTitle={t('status.loadFailed')}
        errorText={editable.refusal}
      >
        {(company) => (
          <CompanyForm
            key={company.id}
            mode="edit"
            initial={company}
            submitLabel={t('edit.submit')}
            canSubmit
            sending={mutation.isPending}
            save={save}
          />
        )}
      </QueryState>
      {company && role && mayPerform(role, 'privacy.settings') && (
        <PrivacySection companyId={company.id} timeZone={company.timezone} />
      )}
    </Container>
  );
}
