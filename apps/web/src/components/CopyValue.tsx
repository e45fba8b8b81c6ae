/**
 * A value to give another system, read-only, with its "Copier" button: what the identity
 * provider needs (issue 33), a secret shown once (a SCIM token, an API key, a webhook's
 * signing secret: issue 34).
 */
import { Button, Group, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from '../lib/i18n';

export function CopyValue(props: {
  label: string;
  value: string;
  description?: string;
  testId?: string;
}) {
  const { t } = useTranslation('common');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.value);
      notifications.show({ message: t('copied'), color: 'teal' });
    } catch {
      notifications.show({ message: props.value, color: 'gray', title: t('copyFailed') });
    }
  };
  return (
    <Group align="flex-end" gap="xs" wrap="nowrap">
      <TextInput
        label={props.label}
        description={props.description}
        value={props.value}
        readOnly
        style={{ flex: 1, minWidth: 0 }}
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
