/**
 * 'Validation Manuelle UIDN' (spec §2, §4, §5): the front desk types a code read
 * out by a visitor or a member (with or without dashes, any case). An empty field
 * sends nothing; a check that changed the person's state shows 'Bien éffectué';
 * anything else toasts the server's message. The form goes through the one form layer
 * (useSchemaForm): a second submit while a check runs sends nothing (issue 17).
 */
import { useState } from 'react';
import { Alert, Button, Container, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/i18n';
import { Link, useParams } from 'react-router';
import { formatUidn, typedCodeSchema, type CheckResult } from '@sesame/shared';
import { PageTitle } from '../../../components/PageTitle';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { useListSite } from '../../../lib/list-site';
import { checkTypedCode } from '../api/checks';
import { scanFailureText } from '../lib/messages';

export default function ManualCheckPage() {
  const { domain = '' } = useParams();
  const { t } = useTranslation('checkins');
  const [done, setDone] = useState<CheckResult | null>(null);
  // The desk's site (issue 28): the header's choice.
  const { site } = useListSite();
  const check = useMutation({ mutationFn: (uidn: string) => checkTypedCode(uidn, site) });
  const { form, submit, busy } = useSchemaForm(typedCodeSchema, {
    ns: 'checkins',
    initialValues: { uidn: '' },
    onSubmit: async ({ uidn: code }) => {
      if (!code) {
        notifications.show({ message: t('manual.empty'), color: 'blue' });
        return;
      }
      try {
        const result = await check.mutateAsync(code);
        if (result.status === 'success') setDone(result);
        else notifications.show({ message: result.message, color: 'orange' });
      } catch (error) {
        notifications.show({ message: scanFailureText(error, t), color: 'red' });
      }
    },
  });
  const uidn = form.values.uidn;
  const setUidn = (value: string) => form.setFieldValue('uidn', value);

  const again = () => {
    setDone(null);
    setUidn('');
  };

  return (
    <Container size="xs" py="xl">
      <PageTitle ta="center">{t('manual.title')}</PageTitle>
      <Paper withBorder radius="md" p="lg">
        {/* A live region always in the page (issue 18): assistive technology says the result
            when it appears (a region added with its text is not reliably announced). */}
        <div role="status" aria-live="polite" data-testid="manual-check-result">
          {done && (
            <Alert color="teal" w="100%" title={t('manual.done')}>
              {done.message}
            </Alert>
          )}
        </div>
        {done ? (
          <Group justify="center" mt="md">
            <Button component={Link} to={`/${domain}`}>
              {t('manual.home')}
            </Button>
            <Button variant="default" onClick={again}>
              {t('manual.another')}
            </Button>
          </Group>
        ) : (
          <form onSubmit={submit} noValidate>
            <Stack gap="md">
              <TextInput
                label={t('manual.label')}
                description={t('manual.hint')}
                placeholder="7KQ2-M9XD-4TRA"
                value={uidn}
                onChange={(e) => setUidn(e.currentTarget.value)}
                error={form.errors.uidn}
                data-path="uidn"
                onBlur={() => uidn.trim() && setUidn(formatUidn(uidn))}
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                maxLength={40}
                size="md"
                styles={{ input: { fontFamily: 'monospace', letterSpacing: '0.1em' } }}
                data-autofocus
              />
              <Button type="submit" size="md" loading={busy}>
                {t('manual.submit')}
              </Button>
              <Text size="xs" c="dimmed">
                {t('manual.footnote')}
              </Text>
            </Stack>
          </form>
        )}
      </Paper>
    </Container>
  );
}
