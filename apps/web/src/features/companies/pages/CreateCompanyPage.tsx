/**
 * 'Créer une Entreprise' (spec §2, §4 Company creation, §5 Company create, §8): the
 * submit button shows only to a signed-in user; success goes to the Menu after 1.5 s,
 * a 401 to the root after 1.5 s.
 */
import { Container } from '@mantine/core';
import { useTranslation, withFrenchWords } from '../../../lib/i18n';
import { useParams } from 'react-router';
import { PageTitle } from '../../../components/PageTitle';
import { useAuth } from '../../../lib/auth';
import { useSave } from '../../../lib/use-save';
import { useCreateCompany } from '../api/companies';
import { CompanyForm } from '../components/CompanyForm';
import { signInAgain, useCompanyFailure } from '../components/feedback';
import companiesWords from '../../../locales/fr/companies.json';

// This screen's French words come with its code (lib/i18n).
withFrenchWords({ companies: companiesWords });

export default function CreateCompanyPage() {
  const { t } = useTranslation('companies');
  const { domain = '' } = useParams();
  const { isAuthenticated } = useAuth();
  const mutation = useCreateCompany();
  const save = useSave(mutation.mutateAsync, useCompanyFailure(), {
    success: t('create.created'),
    then: `/${domain}/menu`,
    goneAfter: signInAgain,
  });

  return (
    <Container size="md" py="lg">
      <PageTitle>{t('create.title')}</PageTitle>
      <CompanyForm
        mode="create"
        submitLabel={t('create.submit')}
        canSubmit={isAuthenticated}
        cannotSubmitNote={t('form.loginToSubmit')}
        sending={mutation.isPending}
        save={save}
      />
    </Container>
  );
}
