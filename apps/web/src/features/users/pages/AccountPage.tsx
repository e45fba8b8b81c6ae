/**
 * 'Mon compte' at /{domain}/mon-compte (issue 17), for every signed-in person: who
 * they are (name, e-mail, roles, company) and 'Changer le mot de passe' — the current
 * one, the new one twice (PUT /api/me/password, the shared passwordChangeSchema).
 * Their other sessions end; this one stays, so the page stays too.
 */
import { useState } from 'react';
import {
  Badge,
  Button,
  Container,
  Group,
  Paper,
  PasswordInput,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from '../../../lib/i18n';
import { PASSWORD_MIN_LENGTH, passwordChangeSchema } from '@sesame/shared';
import { FeedbackAlert, type Feedback } from '../../../components/FeedbackAlert';
import { PageTitle } from '../../../components/PageTitle';
import { ApiError } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { useChangePassword } from '../api/users';

const EMPTY = { current_password: '', new_password: '', confirm_password: '' };

export default function AccountPage() {
  const { t } = useTranslation('users');
  const { user } = useAuth();

  return (
    <Container size="sm" py={{ base: 'md', sm: 'xl' }}>
      <PageTitle>{t('account.title')}</PageTitle>
      <Stack gap="lg">
        {user && (
          <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
            <Title order={2} size="h4" mb="sm">
              {t('account.identity')}
            </Title>
            <Table variant="vertical" layout="fixed" withRowBorders={false}>
              <Table.Tbody>
                <Table.Tr>
                  <Table.Th w={140}>{t('account.name')}</Table.Th>
                  <Table.Td data-testid="account-name">
                    {`${user.firstname} ${user.name}`.trim()}
                  </Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>{t('account.email')}</Table.Th>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{user.email}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>{t('account.roles')}</Table.Th>
                  <Table.Td>
                    <Group gap={6}>
                      {user.roles.map((role) => (
                        <Badge key={role} variant="light">
                          {t(`roles.${role}`)}
                        </Badge>
                      ))}
                    </Group>
                  </Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Th>{t('account.company')}</Table.Th>
                  <Table.Td>{user.company_name}</Table.Td>
                </Table.Tr>
              </Table.Tbody>
            </Table>
          </Paper>
        )}
        {user?.password_managed ? <PasswordManaged /> : <PasswordForm />}
      </Stack>
    </Container>
  );
}

/** Issue 33: the company's identity provider keeps this person's password: nothing to change here. */
function PasswordManaged() {
  const { t } = useTranslation('users');
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} data-testid="password-managed">
      <Title order={2} size="h4">
        {t('account.changePassword')}
      </Title>
      <Text size="sm" mt="xs">
        {t('account.passwordManaged')}
      </Text>
    </Paper>
  );
}

function PasswordForm() {
  const { t } = useTranslation('users');
  const mutation = useChangePassword();
  const [feedback, setFeedback] = useState<Feedback | null>(null);

  const failed = (error: unknown): Record<string, string> => {
    if (error instanceof ApiError && error.status === 429) {
      setFeedback({ color: 'red', title: t('account.tooMany') });
      return {};
    }
    // The server words its field messages in the interface's language (Accept-Language).
    const fieldErrors: Record<string, string> =
      error instanceof ApiError ? { ...error.errors } : {};
    const first = Object.values(fieldErrors)[0];
    setFeedback({
      color: 'red',
      title: first ?? t('account.failed'),
      detail: first ? undefined : error instanceof ApiError ? error.serverMessage : undefined,
    });
    return fieldErrors;
  };

  const { form, submit } = useSchemaForm(passwordChangeSchema, {
    ns: 'users',
    keys: { errors: 'account.errors', fields: 'account.fields' },
    initialValues: EMPTY,
    onSubmit: async (data) => {
      setFeedback(null);
      try {
        await mutation.mutateAsync(data);
      } catch (error) {
        return failed(error);
      }
      form.reset();
      setFeedback({ color: 'teal', title: t('account.passwordChanged') });
      notifications.show({ color: 'teal', message: t('account.passwordChanged') });
      return undefined;
    },
  });
  const pending = form.submitting || mutation.isPending;

  const field = (name: keyof typeof EMPTY, autoComplete: string) => (
    <PasswordInput
      label={t(`account.fields.${name}`)}
      autoComplete={autoComplete}
      required
      {...form.getInputProps(name)}
      name={name}
    />
  );

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }}>
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <div>
            <Title order={2} size="h4">
              {t('account.changePassword')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('account.intro', { min: PASSWORD_MIN_LENGTH })}
            </Text>
          </div>
          {field('current_password', 'current-password')}
          {field('new_password', 'new-password')}
          {field('confirm_password', 'new-password')}
          <FeedbackAlert feedback={feedback} testId="account-feedback" />
          <Button type="submit" loading={pending} disabled={pending} size="md">
            {t('account.changePassword')}
          </Button>
        </Stack>
      </form>
    </Paper>
  );
}
