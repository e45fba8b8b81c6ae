import { useEffect, useState } from 'react';
import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from '../lib/i18n';
import { COPY_FLAG_MS } from '@sesame/shared';

/** Copies a link, says 'Texte Copié', and shows the copied state for COPY_FLAG_MS. */
export function CopyLinkButton({ link, label }: { link: string; label?: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPY_FLAG_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setCopied(true);
      notifications.show({ message: t('copied'), color: 'teal' });
    } catch {
      notifications.show({ message: link, color: 'gray', title: t('copyFailed') });
    }
  };
  return (
    <Button
      size="xs"
      variant={copied ? 'filled' : 'light'}
      color={copied ? 'teal' : undefined}
      onClick={copy}
      data-copied={copied}
    >
      {copied ? t('copied') : (label ?? t('copyLink'))}
    </Button>
  );
}
