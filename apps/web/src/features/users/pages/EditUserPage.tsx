/**
 * EditUser at /{domain}/edit-user/{user_id}: the CreateUser form with an optional
 * password (PUT /api/user/{id}). Success goes back to the user list after 1.5 s.
 */
import { useEffect, useRef, useState } from 'react';
import { Alert, Anchor, Center, Container, Group, Loader } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { REDIRECT_DELAY_MS } from '@sesame/shared';
import { PageTitle } from '../../../components/PageTitle';
import { ApiError } from '../../../lib/api-client';
import { useUpdateUser, useUser, type UserBody } from '../api/users';
import { FeedbackAlert, useUserFailure, type Feedback } from '../components/feedback';
import { UserForm } from '../components/UserForm';

export default function EditUserPage() {
  const { t } = useTranslation('users');
  const { domain = '', user_id: userId = '' } = useParams();
  const navigate = useNavigate();
  const loaded = useUser(userId);
  const mutation = useUpdateUser(userId);
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
      setFeedback({ color: 'teal', title: t('edit.updated') });
      notifications.show({ message: t('edit.updated'), color: 'teal' });
      redirect.current = setTimeout(
        () => void navigate(`/${domain}/list-users`),
        REDIRECT_DELAY_MS,
      );
    } catch (error) {
      const { feedback: next, fieldErrors } = failure(error);
      setFeedback(next);
      setServerErrors(fieldErrors);
    }
  };

  const loadError = loaded.error;
  return (
    <Container size="md" py="lg">
      <Group justify="space-between" align="flex-start">
        <PageTitle>{t('edit.title')}</PageTitle>
        <Anchor component={Link} to={`/${domain}/list-users`} size="sm">
          {t('edit.back')}
        </Anchor>
      </Group>
      {loaded.isPending ? (
        <Center py="xl">
          <Loader aria-label={t('loading', { ns: 'common' })} />
        </Center>
      ) : loadError ? (
        <Alert color="red" role="alert" title={t('edit.loadFailed')}>
          {loadError instanceof ApiError && loadError.status > 0 ? loadError.message : null}
        </Alert>
      ) : (
        <UserForm
          key={loaded.data.id}
          mode="edit"
          initial={loaded.data}
          submitLabel={t('edit.submit')}
          pending={mutation.isPending || feedback?.color === 'teal'}
          serverErrors={serverErrors}
          feedback={<FeedbackAlert feedback={feedback} />}
          onSubmit={(body) => void submit(body)}
        />
      )}
    </Container>
  );
}
