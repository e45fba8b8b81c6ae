/**
 * 'Editer l'Entreprise' at /{domain}/edit-company/{company_edit} (slug or id; the
 * navbar's 'Modifier entreprise' for managers and supervisors): the name is
 * read-only, the logo optional. Success goes to the company list after 1.5 s.
 */
import { useEffect, useRef, useState } from 'react';
import { Alert, Center, Container, Loader } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { REDIRECT_DELAY_MS, mayPerform } from '@sesame/shared';
import { PageTitle } from '../../../components/PageTitle';
import { ApiError } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { useCompanyDetails, useUpdateCompany } from '../api/companies';
import { CompanyForm } from '../components/CompanyForm';
import { PrivacySection } from '../components/PrivacySection';
import { FeedbackAlert, useCompanyFailure, type Feedback } from '../components/feedback';

export default function EditCompanyPage() {
  const { t } = useTranslation('companies');
  const { domain = '', company_edit: companyEdit = '' } = useParams();
  const navigate = useNavigate();
  const { role } = useAuth();
  const loaded = useCompanyDetails(companyEdit);
  const mutation = useUpdateCompany();
  const failure = useCompanyFailure();
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const redirect = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => () => clearTimeout(redirect.current), []);

  const submit = async (id: string, form: FormData) => {
    setFeedback(null);
    setServerErrors({});
    try {
      await mutation.mutateAsync({ id, form });
      setFeedback({ color: 'teal', title: t('edit.updated') });
      notifications.show({ message: t('edit.updated'), color: 'teal' });
      redirect.current = setTimeout(
        () => void navigate(`/${domain}/company-list`),
        REDIRECT_DELAY_MS,
      );
    } catch (error) {
      const { feedback: next, fieldErrors } = failure(error);
      setFeedback(next);
      setServerErrors(fieldErrors);
      if (error instanceof ApiError && error.status === 401) {
        redirect.current = setTimeout(() => void navigate('/'), REDIRECT_DELAY_MS);
      }
    }
  };

  // Someone outside the company reads only its public fields: they may not edit it.
  const company = loaded.data && 'link' in loaded.data ? loaded.data : null;
  let body;
  if (loaded.isPending) {
    body = (
      <Center py="xl">
        <Loader aria-label={t('loading', { ns: 'common' })} />
      </Center>
    );
  } else if (!company) {
    const status = loaded.error instanceof ApiError ? loaded.error.status : 403;
    body = (
      <Alert color="red" role="alert" title={t('status.loadFailed')}>
        {status === 404 ? t('status.404') : status === 0 ? null : t('status.403')}
      </Alert>
    );
  } else {
    body = (
      <CompanyForm
        key={company.id}
        mode="edit"
        initial={company}
        submitLabel={t('edit.submit')}
        canSubmit
        pending={mutation.isPending || feedback?.color === 'teal'}
        serverErrors={serverErrors}
        feedback={<FeedbackAlert feedback={feedback} />}
        onSubmit={(form) => void submit(company.id, form)}
      />
    );
  }

  return (
    <Container size="md" py="lg">
      <PageTitle>{t('edit.title')}</PageTitle>
      {body}
      {company && role && mayPerform(role, 'privacy.settings') && (
        <PrivacySection companyId={company.id} />
      )}
    </Container>
  );
}
