/**
 * 'Créer une Entreprise' (spec §2, §4 Company creation, §5 Company create, §8): the
 * submit button shows only to a signed-in user; success goes to the Menu after 1.5 s,
 * a 401 to the root after 1.5 s.
 */
import { useEffect, useRef, useState } from 'react';
import { Container } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { REDIRECT_DELAY_MS } from '@sesame/shared';
import { PageTitle } from '../../../components/PageTitle';
import { ApiError } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { useCreateCompany } from '../api/companies';
import { CompanyForm } from '../components/CompanyForm';
import { FeedbackAlert, useCompanyFailure, type Feedback } from '../components/feedback';

export default function CreateCompanyPage() {
  const { t } = useTranslation('companies');
  const { domain = '' } = useParams();
  const navigate = useNavigate();
  const { isAuthenticated } = useAuth();
  const mutation = useCreateCompany();
  const failure = useCompanyFailure();
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const redirect = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => () => clearTimeout(redirect.current), []);

  const submit = async (form: FormData) => {
    setFeedback(null);
    setServerErrors({});
    try {
      await mutation.mutateAsync(form);
      setFeedback({ color: 'teal', title: t('create.created') });
      notifications.show({ message: t('create.created'), color: 'teal' });
      redirect.current = setTimeout(() => void navigate(`/${domain}/menu`), REDIRECT_DELAY_MS);
    } catch (error) {
      const { feedback: next, fieldErrors } = failure(error);
      setFeedback(next);
      setServerErrors(fieldErrors);
      if (error instanceof ApiError && error.status === 401) {
        redirect.current = setTimeout(() => void navigate('/'), REDIRECT_DELAY_MS);
      }
    }
  };

  return (
    <Container size="md" py="lg">
      <PageTitle>{t('create.title')}</PageTitle>
      <CompanyForm
        mode="create"
        submitLabel={t('create.submit')}
        canSubmit={isAuthenticated}
        cannotSubmitNote={t('form.loginToSubmit')}
        pending={mutation.isPending || feedback?.color === 'teal'}
        serverErrors={serverErrors}
        feedback={<FeedbackAlert feedback={feedback} />}
        onSubmit={(form) => void submit(form)}
      />
    </Container>
  );
}
