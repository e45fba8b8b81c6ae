/**
 * `/{domain}/kiosks` (issue 29): the company's kiosks — the lobby's self-service tablets,
 * each at a site — created, edited, paired with a 6-digit code shown once, given a new
 * code, revoked (the tablet can do nothing more; the kiosk stays listed and may be paired
 * again). Each says its state and its tablet's last contact.
 */
import { useEffect, useRef, useState } from 'react';
import { Badge, Container, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useParams } from 'react-router';
import type { Kiosk, KioskInput, KioskPairing, Site } from '@sesame/shared';
import { ListHeader } from '../../../components/ListHeader';
import { QueryRows } from '../../../components/QueryRows';
import { RowActions, RowButton, useRecordAction } from '../../../components/RowActions';
import { nameColumn, type Column } from '../../../components/RowsTable';
import { useSettings } from '../../../lib/company';
import { formatDateTime } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import { useNow } from '../../../lib/use-now';
import { useCompanySites } from '../../../lib/site';
import { toastDone, useInlineEdit } from '../../../lib/use-inline-edit';
import { withZone } from '../../../lib/zone-label';
import {
  createKiosk,
  kiosksQueryKey,
  newPairingCode,
  revokeKiosk,
  updateKiosk,
  useKiosks,
} from '../api/kiosks';
import { KioskForm } from '../components/KioskForm';
import { PairingCode } from '../components/PairingCode';
import { lastContact, sortKiosks } from '../lib/kiosks';

const STATE_COLORS: Record<Kiosk['state'], { color: string; c?: string }> = {
  waiting: { color: 'yellow', c: 'yellow.9' },
  paired: { color: 'teal' },
  revoked: { color: 'red' },
  unpaired: { color: 'gray' },
};

export default function KiosksPage() {
  const { t, i18n } = useTranslation(['kiosks', 'badges']);
  const { domain = '' } = useParams();
  const queryClient = useQueryClient();
  const now = useNow();
  const [pairing, setPairing] = useState<{ kiosk: Kiosk; pairing: KioskPairing } | null>(null);
  const pairingRef = useRef<HTMLDivElement>(null);
  const settings = useSettings();
  const kiosks = useKiosks(domain);
  // Archived sites too: a kiosk of an archived site still says where it is and in which zone.
  const allSites = useCompanySites(domain, { archived: true });
  const sites = (allSites.data ?? []).filter((site) => !site.archived_at);
  const siteOf = (id: string): Site | undefined => allSites.data?.find((site) => site.id === id);
  const publicUrl = settings.data?.public_url ?? window.location.origin;
  const refresh = () => queryClient.invalidateQueries({ queryKey: kiosksQueryKey(domain) });

  // A new code shows at the top of the page: the view goes there, and the keyboard with it.
  useEffect(() => {
    if (!pairing) return;
    const node = pairingRef.current;
    node?.scrollIntoView?.({ block: 'center' });
    node?.querySelector<HTMLElement>('h2')?.focus();
  }, [pairing]);

  const edit = useInlineEdit<Kiosk, KioskInput>({
    t,
    save: async (input, editing) => {
      if (editing?.mode === 'edit') {
        toastDone(await updateKiosk(domain, editing.record.id, input), t('saved'));
      } else {
        const answer = await createKiosk(domain, input);
        toastDone(answer, t('created'));
        setPairing({ kiosk: answer.data, pairing: answer.pairing });
      }
      await refresh();
    },
    onOpen: () => setPairing(null),
  });

  const code = useRecordAction({
    run: (kiosk: Kiosk) => newPairingCode(domain, kiosk.id),
    done: t('done.newCode'),
    failed: t('failed.newCode'),
    refresh,
    onDone: (answer) => {
      edit.close();
      setPairing({ kiosk: answer.data, pairing: answer.pairing });
    },
  });

  const revoke = useRecordAction({
    run: (kiosk: Kiosk) => revokeKiosk(domain, kiosk.id),
    done: t('done.revoke'),
    failed: t('failed.revoke'),
    refresh,
    // The code of a kiosk just revoked no longer pairs anything.
    onDone: (_answer, kiosk) =>
      setPairing((shown) => (shown?.kiosk.id === kiosk.id ? null : shown)),
    confirm: (kiosk) => ({
      title: t('confirm.title', { name: kiosk.name }),
      body: t('confirm.body', { name: kiosk.name }),
      confirm: t('confirm.yes'),
      cancel: t('confirm.no'),
    }),
  });

  const said = (kiosk: Kiosk): string => {
    const contact = lastContact(kiosk.last_seen_at, now);
    switch (contact.kind) {
      case 'never':
        return t('lastSeen.never');
      case 'now':
        return t('lastSeen.now');
      case 'minutes':
        return t('lastSeen.minutes', { count: contact.count });
      case 'hours':
        return t('lastSeen.hours', { count: contact.count });
      case 'date': {
        const zone = siteOf(kiosk.site.id)?.timezone;
        return withZone(formatDateTime(contact.iso, zone, i18n.language), zone, i18n.language);
      }
    }
  };

  const columns: Column<Kiosk>[] = [
    nameColumn(t('columns.name'), (kiosk) => kiosk.name, 'kiosk-name'),
    {
      key: 'site',
      header: t('columns.site'),
      render: (kiosk) => kiosk.site.name,
    },
    {
      key: 'state',
      header: t('columns.state'),
      render: (kiosk) => (
        <Badge
          variant="light"
          {...STATE_COLORS[kiosk.state]}
          data-state={kiosk.state}
          data-testid="kiosk-state"
        >
          {t(`state.${kiosk.state}`)}
        </Badge>
      ),
    },
    {
      key: 'lastSeen',
      header: t('columns.lastSeen'),
      render: (kiosk) => {
        const text = said(kiosk);
        return kiosk.last_seen_at ? (
          <Text
            size="sm"
            component="time"
            dateTime={kiosk.last_seen_at}
            title={formatDateTime(
              kiosk.last_seen_at,
              siteOf(kiosk.site.id)?.timezone,
              i18n.language,
            )}
          >
            {text}
          </Text>
        ) : (
          <Text size="sm" c="dimmed">
            {text}
          </Text>
        );
      },
    },
    {
      key: 'languages',
      header: t('columns.languages'),
      render: (kiosk) => kiosk.languages.map((language) => language.toUpperCase()).join(', '),
    },
    {
      key: 'steps',
      header: t('columns.steps'),
      render: (kiosk) => {
        const steps = [
          ...(kiosk.ask_photo ? [t('steps.photo')] : []),
          ...(kiosk.print_badge
            ? [t('steps.badge', { size: t(`badges:sizes.${kiosk.badge_size}`) })]
            : []),
        ];
        return steps.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('steps.none')}
          </Text>
        ) : (
          <Stack gap={2}>
            {steps.map((step) => (
              <Text size="sm" key={step}>
                {step}
              </Text>
            ))}
            {kiosk.print_badge && kiosk.printer_url && (
              <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                {t('steps.printer', { printer: kiosk.printer_url })}
              </Text>
            )}
          </Stack>
        );
      },
    },
    {
      key: 'actions',
      header: t('columns.actions'),
      card: 'actions',
      render: (kiosk) => (
        <RowActions>
          <RowButton
            label={t('newCode')}
            ariaLabel={t('newCodeOf', { name: kiosk.name })}
            onClick={() => code.mutate(kiosk)}
            loading={code.busy(kiosk.id)}
          />
          <RowButton
            label={t('edit')}
            ariaLabel={t('editOf', { name: kiosk.name })}
            onClick={() => edit.openEdit(kiosk)}
          />
          {kiosk.state !== 'revoked' && (
            <RowButton
              label={t('revoke')}
              ariaLabel={t('revokeOf', { name: kiosk.name })}
              color="red"
              onClick={() => revoke.ask(kiosk)}
              loading={revoke.busy(kiosk.id)}
            />
          )}
        </RowActions>
      ),
    },
  ];

  return (
    <Container size="lg">
      <ListHeader title={t('title')} intro={t('intro')} create={edit.createAction(t('create'))} />
      <Stack gap="md">
        {pairing && (
          <div ref={pairingRef}>
            <PairingCode
              kiosk={pairing.kiosk}
              pairing={pairing.pairing}
              publicUrl={publicUrl}
              onClose={() => setPairing(null)}
            />
          </div>
        )}
        {edit.editing && (
          <KioskForm
            key={edit.formKey}
            kiosk={edit.record}
            sites={sites}
            feedback={edit.feedback}
            onSubmit={edit.submit}
            onCancel={() => edit.open(null)}
          />
        )}
        <QueryRows
          query={kiosks}
          loadFailed={t('loadFailed')}
          empty={t('empty')}
          order={sortKiosks}
          columns={columns}
          rowKey={(kiosk) => kiosk.id}
          label={t('title')}
          minWidth={960}
        />
      </Stack>
    </Container>
  );
}
