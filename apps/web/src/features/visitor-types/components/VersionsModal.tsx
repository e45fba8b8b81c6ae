/** A document's versions (issue 31): each one's date, and its text when chosen. */
import { useState } from 'react';
import { Button, Group, Loader, Modal, Paper, Stack, Text, Title } from '@mantine/core';
import type { SiteDocument } from '@sesame/shared';
import { formatDateTime } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import { useDocumentVersion } from '../api/visitor-types';
import { DocumentText } from '../../../components/signing/DocumentText';

export function VersionsModal(props: {
  company: string;
  document: SiteDocument;
  timezone?: string;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation('visitor-types');
  const { document: doc } = props;
  const [version, setVersion] = useState<number | null>(null);
  const shown = useDocumentVersion(props.company, doc.id, version);
  const english = i18n.language === 'en';
  const versions = [...doc.versions].sort((a, b) => b.version - a.version);

  return (
    <Modal
      opened
      onClose={props.onClose}
      size="lg"
      title={t('versions.title', { title: english ? doc.title_en : doc.title_fr })}
      closeButtonProps={{ 'aria-label': t('form.close') }}
    >
      <Stack gap="sm">
        <ul style={{ listStyle: 'none', padding: 0, margin: 0 }} data-testid="document-versions">
          {versions.map((v) => (
            <li key={v.version}>
              <Group justify="space-between" py={4}>
                <Text size="sm">
                  {t('versions.line', {
                    version: v.version,
                    date: formatDateTime(v.created_at, props.timezone, i18n.language),
                  })}
                  {v.version === doc.version ? ` · ${t('versions.current')}` : ''}
                </Text>
                <Button
                  size="xs"
                  variant="light"
                  onClick={() => setVersion(v.version)}
                  aria-pressed={version === v.version}
                  aria-label={t('versions.readOf', { version: v.version })}
                >
                  {t('versions.read')}
                </Button>
              </Group>
            </li>
          ))}
        </ul>
        {version !== null && (
          <Paper withBorder p="sm" radius="md" aria-live="polite">
            {shown.isPending ? (
              <Loader size="sm" aria-label={t('versions.loading')} />
            ) : shown.isError || !shown.data ? (
              <Text size="sm" c="red.8" role="alert">
                {t('versions.loadFailed')}
              </Text>
            ) : (
              <Stack gap="xs">
                <Title order={3} size="h5">
                  {t('versions.heading', {
                    version: shown.data.version,
                    title: english ? shown.data.title_en : shown.data.title_fr,
                  })}
                </Title>
                <div lang={english ? 'en' : 'fr'}>
                  <DocumentText
                    source={english ? shown.data.body_en : shown.data.body_fr}
                    headingLevel={4}
                  />
                </div>
              </Stack>
            )}
          </Paper>
        )}
      </Stack>
    </Modal>
  );
}
