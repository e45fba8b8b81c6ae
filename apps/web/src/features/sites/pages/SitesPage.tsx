/**
 * `/{domain}/sites` (issue 28): the company's sites — its buildings, each with its address,
 * time zone, front desk and hours — created, edited, archived (a site with history is
 * archived, never deleted), restored and deleted. Each site's own request link and QR
 * poster choose it for the visitor.
 */
import { useState } from 'react';
import { Anchor, Badge, Button, Container, Group, Stack, Switch, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { mayPerform, type Site, type SiteInput } from '@sesame/shared';
import { CopyLinkButton } from '../../../components/CopyLinkButton';
import type { Feedback } from '../../../components/FeedbackAlert';
import { PageTitle } from '../../../components/PageTitle';
import { QueryState } from '../../../components/QueryState';
import { ResponsiveRows } from '../../../components/ResponsiveRows';
import type { Column } from '../../../components/RowsTable';
import { ApiError, serverMessageOf } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { useCompany, useSettings } from '../../../lib/company';
import { specificMessage } from '../../../lib/failure';
import { useTranslation } from '../../../lib/i18n';
import { useCompanySites } from '../../../lib/site';
import { createSite, updateSite, useSiteAction } from '../api/sites';
import { SiteForm } from '../components/SiteForm';
import { siteRequestLink, sitePosterPath, sortSites } from '../lib/sites';

type Editing = { mode: 'create' } | { mode: 'edit'; site: Site } | null;

export default function SitesPage() {
  const { t } = useTranslation('sites');
  const { domain = '' } = useParams();
  const { role } = useAuth();
  const queryClient = useQueryClient();
  const [archived, setArchived] = useState(false);
  const [editing, setEditing] = useState<Editing>(null);
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const company = useCompany(domain);
  const settings = useSettings();
  const sites = useCompanySites(domain, { archived: true });
  const action = useSiteAction(domain);
  const manages = !!role && mayPerform(role, 'sites.manage');
  const slug = company.data?.slug ?? domain;
  const publicUrl = settings.data?.public_url ?? window.location.origin;

  const open = (next: Editing) => {
    setFeedback(null);
    setEditing(next);
  };

  const save = async (input: SiteInput): Promise<Record<string, string> | undefined> => {
    setFeedback(null);
    try {
      const answer =
        editing?.mode === 'edit'
          ? await updateSite(domain, editing.site.id, input)
          : await createSite(domain, input);
      await queryClient.invalidateQueries({ queryKey: ['sites'] });
      notifications.show({
        color: 'teal',
        message: answer.message ?? t(editing?.mode === 'edit' ? 'saved' : 'created'),
      });
      setEditing(null);
      return undefined;
    } catch (error) {
      const status = error instanceof ApiError ? error.status : 0;
      setFeedback({
        color: 'red',
        title:
          status === 0
            ? t('saveFailed')
            : (serverMessageOf(error) ?? t('saveFailedStatus', { status })),
        detail: error instanceof ApiError && error.errors ? undefined : specificMessage(error),
      });
      return error instanceof ApiError ? error.errors : undefined;
    }
  };

  const act = (kind: 'archive' | 'restore' | 'delete', site: Site) =>
    modals.openConfirmModal({
      title: t(`confirm.${kind}.title`, { name: site.name }),
      children: <Text>{t(`confirm.${kind}.body`, { name: site.name })}</Text>,
      labels: { confirm: t(`confirm.${kind}.yes`), cancel: t('confirm.no') },
      confirmProps: { color: kind === 'restore' ? undefined : 'red.9' },
      onConfirm: () =>
        action.mutate(
          { action: kind, siteId: site.id },
          {
            onSuccess: (answer) =>
              notifications.show({
                color: 'teal',
                message: answer.message ?? t(`done.${kind}`),
              }),
            onError: (error) =>
              notifications.show({
                color: 'red',
                message: serverMessageOf(error) ?? t(`failed.${kind}`),
              }),
          },
        ),
    });

  const columns: Column<Site>[] = [
    {
      key: 'name',
      header: t('columns.name'),
      card: 'title',
      render: (site) => (
        <Stack gap={2}>
          <Text fw={600} size="sm">
            {site.name}
          </Text>
          {site.archived_at && (
            <Badge color="gray" variant="light" size="sm">
              {t('archived')}
            </Badge>
          )}
        </Stack>
      ),
    },
    { key: 'city', header: t('columns.city'), render: (site) => site.city ?? '—' },
    { key: 'timezone', header: t('columns.timezone'), render: (site) => site.timezone },
    { key: 'short_code', header: t('columns.shortCode'), render: (site) => site.short_code ?? '—' },
    { key: 'day_end', header: t('columns.dayEnd'), render: (site) => site.day_end },
    {
      key: 'link',
      header: t('columns.link'),
      card: 'wide',
      render: (site) =>
        site.archived_at ? (
          '—'
        ) : (
          // One above the other: side by side, a narrow column cut the button's words.
          <Stack gap={4} align="flex-start">
            <CopyLinkButton
              link={siteRequestLink(publicUrl, slug, site.id)}
              label={t('copyLink')}
            />
            <Anchor
              component={Link}
              to={sitePosterPath(domain, slug, site.id)}
              size="sm"
              aria-label={t('posterOf', { name: site.name })}
            >
              {t('poster')}
            </Anchor>
          </Stack>
        ),
    },
    ...(manages
      ? [
          {
            key: 'actions',
            header: t('columns.actions'),
            card: 'actions' as const,
            render: (site: Site) => (
              <Group gap="xs" wrap="nowrap">
                <Button
                  size="xs"
                  variant="light"
                  onClick={() => open({ mode: 'edit', site })}
                  aria-label={t('editOf', { name: site.name })}
                >
                  {t('edit')}
                </Button>
                {site.archived_at ? (
                  <Button
                    size="xs"
                    variant="light"
                    onClick={() => act('restore', site)}
                    aria-label={t('restoreOf', { name: site.name })}
                  >
                    {t('restore')}
                  </Button>
                ) : (
                  <Button
                    size="xs"
                    variant="light"
                    color="orange"
                    onClick={() => act('archive', site)}
                    aria-label={t('archiveOf', { name: site.name })}
                  >
                    {t('archive')}
                  </Button>
                )}
                <Button
                  size="xs"
                  variant="light"
                  color="red"
                  onClick={() => act('delete', site)}
                  aria-label={t('deleteOf', { name: site.name })}
                >
                  {t('delete')}
                </Button>
              </Group>
            ),
          },
        ]
      : []),
  ];

  return (
    <Container size="lg">
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <PageTitle>{t('title')}</PageTitle>
        {manages && !editing && (
          <Button variant="light" onClick={() => open({ mode: 'create' })}>
            {t('create')}
          </Button>
        )}
      </Group>
      <Text c="dimmed" size="sm" mb="md">
        {t('intro')}
      </Text>
      <Stack gap="md">
        {editing && (
          <SiteForm
            key={editing.mode === 'edit' ? editing.site.id : 'new'}
            site={editing.mode === 'edit' ? editing.site : undefined}
            feedback={feedback}
            onSubmit={save}
            onCancel={() => open(null)}
          />
        )}
        <Switch
          label={t('showArchived')}
          checked={archived}
          onChange={(event) => setArchived(event.currentTarget.checked)}
        />
        <QueryState
          query={sites}
          errorText={(error) => serverMessageOf(error) ?? t('loadFailed')}
          isEmpty={(rows) => rows.length === 0}
          empty={<Text c="dimmed">{t('empty')}</Text>}
        >
          {(rows) => {
            const shown = sortSites(rows.filter((site) => archived || !site.archived_at));
            return shown.length === 0 ? (
              <Text c="dimmed">{t('empty')}</Text>
            ) : (
              <ResponsiveRows
                columns={columns}
                rows={shown}
                rowKey={(site) => site.id}
                offset={0}
                label={t('title')}
                minWidth={900}
              />
            );
          }}
        </QueryState>
      </Stack>
    </Container>
  );
}
