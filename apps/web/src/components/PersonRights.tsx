/**
 * A person's rights (issue 16), on a visitor's or a card holder's page for admins and
 * managers: export everything Sésame holds about them (a ZIP named after them and the day,
 * by the server), or erase them at once after a confirmation that names what will go, and
 * then return to the page the person's page was opened from (issue 27, `lib/came-from`).
 */
import { useState } from 'react';
import { Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation, withFrenchWords } from '../lib/i18n';
import { mayPerform, type ErasurePreview } from '@sesame/shared';
import { api, serverMessageOf } from '../lib/api-client';
import { useAuth } from '../lib/auth';
import { returnPath } from '../lib/came-from';
import { downloadFile } from '../lib/download';
import { TitledSection } from './TitledSection';
import privacyWords from '../locales/fr/privacy.json';

// This screen's French words come with its code (lib/i18n).
withFrenchWords({ privacy: privacyWords });

export function PersonRights(props: {
  kind: 'visitor' | 'qr_user';
  /** The person's record id, or their code. */
  personKey: string;
  /**
   * Where to go once the person is erased when the page was not opened from another page
   * of the app (a typed address, a mail): the list of this kind of person.
   */
  listPath: string;
}) {
  const { t } = useTranslation('privacy');
  const { role } = useAuth();
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<'export' | 'erase' | null>(null);
  if (!role || !mayPerform(role, 'privacy.rights')) return null;
  const base = `/privacy/${props.kind}/${encodeURIComponent(props.personKey)}`;

  const exportData = async () => {
    setBusy('export');
    try {
      // The server names the file after the person and the day; this is only its fallback.
      await downloadFile(`${base}/export`, 'sesame-donnees.zip');
    } catch (error) {
      notifications.show({
        color: 'red',
        message: serverMessageOf(error) ?? t('rights.exportFailed'),
      });
    } finally {
      setBusy(null);
    }
  };

  const erase = async () => {
    setBusy('erase');
    let preview: ErasurePreview;
    try {
      preview = (await api.get<{ data: ErasurePreview }>(`${base}/erasure`)).data;
    } catch (error) {
      setBusy(null);
      notifications.show({
        color: 'red',
        message: serverMessageOf(error) ?? t('rights.eraseFailed'),
      });
      return;
    }
    setBusy(null);
    // Its events only; the provider that shows the dialog is mounted for staff (app/routes).
    const { modals } = await import('../app/staff-modals');
    modals.openConfirmModal({
      title: t('rights.confirmTitle', { name: preview.name }),
      children: (
        <>
          <Text size="sm">
            {t('rights.confirmBody', {
              documents: t('rights.counts.documents', { count: preview.documents }),
              requests: t('rights.counts.requests', { count: preview.requests }),
              mails: t('rights.counts.mails', { count: preview.mails }),
            })}
          </Text>
          {preview.checks > 0 && (
            <Text size="sm" mt="xs">
              {t('rights.confirmChecks', { count: preview.checks })}
            </Text>
          )}
        </>
      ),
      labels: { confirm: t('rights.confirm'), cancel: t('rights.cancel') },
      confirmProps: { color: 'red' },
      onConfirm: () => {
        setBusy('erase');
        api
          .post<{ message: string }>(`${base}/erase`)
          .then((answer) => {
            notifications.show({ color: 'teal', message: answer.message });
            // The person may be in any list cached earlier (requests, logs, cards): those
            // screens load afresh rather than show them again for a moment.
            queryClient.removeQueries({ predicate: (query) => query.getObserversCount() === 0 });
            void navigate(returnPath(location.state, props.listPath));
          })
          .catch((error: unknown) =>
            notifications.show({
              color: 'red',
              message: serverMessageOf(error) ?? t('rights.eraseFailed'),
            }),
          )
          .finally(() => setBusy(null));
      },
    });
  };

  return (
    <TitledSection id="rights-title" title={t('rights.title')} titleSize="h4" w="100%">
      <Group gap="sm">
        <Button variant="light" loading={busy === 'export'} onClick={() => void exportData()}>
          {t('rights.export')}
        </Button>
        <Button
          variant="outline"
          color="red"
          loading={busy === 'erase'}
          onClick={() => void erase()}
        >
          {t('rights.erase')}
        </Button>
      </Group>
    </TitledSection>
  );
}
