/**
 * CreateUser (spec §2, §5 User creation, §8 User creation): a 201 shows the spec's
 * text and goes to the Menu after 1.4 s.
 */
import { useEffect, useRef, useState } from 'react';
import { Container } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { USER_CREATED_REDIRECT_MS } from '@sesame/shared';
import { PageTitle } from '../../../components/PageTitle';
import { useCreateUser, type UserBody } from '../api/users';
import { FeedbackAlert, useUserFailure, type Feedback } from '../components/feedback';
import { UserForm } from '../components/UserForm';

export default function CreateUserPage() {
  const { t } = useTranslation('users');
  const { domain = '' } = useParams();
  const navigate = useNavigate();
  const mutation = useCreateUser();
  const failure = useUserFailure();
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const redirect = useRef<ReturnType<typeof setTimeout>>(undefined);

  useEffect(() => () => clearTimeout(redirect.current), []);

  const submit = async (body: UserBody) => {
    setFeedback(null);
    setServerErrors({});
    try {
      await mutation.mutateAsync(body);
      setFeedback({ color: 'teal', title: t('status.201') });
      notifications.show({ message: t('status.success'), color: 'teal' });
      redirect.current = setTimeout(
        () => void navigate(`/${domain}/menu`),
        USER_CREATED_REDIRECT_MS,
      );
    } catch (error) {
      const { feedback: next, fieldErrors } = failure(error);
      setFeedback(next);
      setServerErrors(fieldErrors);
    }
  };

  return (
    <Container size="md" py="lg">
      <PageTitle>{t('create.title')}</PageTitle>
      <UserForm
        mode="create"
        pageCompanySlug={domain}
        submitLabel={t('create.submit')}
        pending={mutation.isPending || feedback?.color === 'teal'}
        serverErrors={serverErrors}
        feedback={<FeedbackAlert feedback={feedback} />}
        onSubmit={(body) => void submit(body)}
      />
    </Container>
  );
}
