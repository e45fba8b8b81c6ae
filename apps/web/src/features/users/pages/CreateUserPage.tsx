/**
 * CreateUser (spec §2, §5 User creation, §8 User creation): a 201 shows the spec's
 * text and goes to the Menu after 1.4 s.
 */
import { Container } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n';
import { useParams } from 'react-router';
import { USER_CREATED_REDIRECT_MS } from '@sesame/shared';
import { PageTitle } from '../../../components/PageTitle';
import { useSave } from '../../../lib/use-save';
import { useCreateUser } from '../api/users';
import { useUserFailure } from '../components/feedback';
import { UserForm } from '../components/UserForm';

export default function CreateUserPage() {
  const { t } = useTranslation('users');
  const { domain = '' } = useParams();
  const mutation = useCreateUser();
  const save = useSave(mutation.mutateAsync, useUserFailure(), {
    success: t('status.201'),
    toast: t('status.success'),
    then: `/${domain}/menu`,
    delayMs: USER_CREATED_REDIRECT_MS,
  });

  return (
    <Container size="md" py="lg">
      <PageTitle>{t('create.title')}</PageTitle>
      <UserForm mode="create" pageCompanySlug={domain} sending={mutation.isPending} save={save} />
    </Container>
  );
}
