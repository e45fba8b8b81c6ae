/** A value to give the identity provider, read-only, with its copy button (issue 33). */
import { Button, Group, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from '../../../lib/i18n';

export function CopyValue(props: {
  label: string;
  value: string;
  description?: string;
  testId?: string;
}) {
  const { t } = useTranslation(['sso', 'common']);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.value);
      notifications.show({ message: t('common:copied'), color: 'teal' });
    } catch {
      notifications.show({ message: props.value, color: 'gray', title: t('common:copyFailed') });
    }
  };
  return (
    <Group align="flex-end" gap="xs" wrap="nowrap">
      <TextInput
        label={props.label}
        description={props.description}
        value={props.value}
        readOnly
        style={{ flex: 1 }}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
        data-testid={props.testId}
      />
      <Button
        variant="light"
        onClick={copy}
        aria-label={t('copyOf', { label: props.label })}
        disabled={!props.value}
      >
        {t('copy')}
      </Button>
    </Group>
  );
}
