/**
 * EditUser at /{domain}/edit-user/{user_id}: the CreateUser form with an optional
 * password (PUT /api/user/{id}). Success goes back to the user list after 1.5 s.
 */
import { Anchor, Container, Group } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n';
import { Link, useParams } from 'react-router';
import { PageTitle } from '../../../components/PageTitle';
import { QueryState } from '../../../components/QueryState';
import { serverMessageOf } from '../../../lib/api-client';
import { useSave } from '../../../lib/use-save';
import { useUpdateUser, useUser } from '../api/users';
import { useUserFailure } from '../components/feedback';
import { UserForm } from '../components/UserForm';

export default function EditUserPage() {
  const { t } = useTranslation('users');
  const { domain = '', user_id: userId = '' } = useParams();
  const loaded = useUser(userId);
  const mutation = useUpdateUser(userId);
  const save = useSave(mutation.mutateAsync, useUserFailure(), {
    success: t('edit.updated'),
    then: `/${domain}/list-users`,
  });

  return (
    <Container size="md" py="lg">
      <Group justify="space-between" align="flex-start">
        <PageTitle>{t('edit.title')}</PageTitle>
        <Anchor component={Link} to={`/${domain}/list-users`} size="sm">
          {t('edit.back')}
        </Anchor>
      </Group>
      <QueryState query={loaded} errorTitle={t('edit.loadFailed')} errorText={serverMessageOf}>
        {(user) => (
          <UserForm
            key={user.id}
            mode="edit"
            initial={user}
            sending={mutation.isPending}
            save={save}
          />
        )}
      </QueryState>
    </Container>
  );
}
