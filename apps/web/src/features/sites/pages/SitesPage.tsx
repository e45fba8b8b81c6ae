/**
 * `/{domain}/sites` (issue 28): the company's sites — its buildings, each with its address,
 * time zone, front desk and hours — created, edited, archived (a site with history is
 * archived, never deleted), restored and deleted. Each site's own request link and QR
 * poster choose it for the visitor.
 */
import { useState } from 'react';
import { Anchor, Badge, Container, Stack, Switch, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { mayPerform, type Site, type SiteInput } from '@sesame/shared';
import { CopyLinkButton } from '../../../components/CopyLinkButton';
import { ListHeader } from '../../../components/ListHeader';
import { QueryState } from '../../../components/QueryState';
import { ResponsiveRows } from '../../../components/ResponsiveRows';
import { confirmAction, RowActions, RowButton } from '../../../components/RowActions';
import type { Column } from '../../../components/RowsTable';
import { serverMessageOf } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { useCompany, useSettings } from '../../../lib/company';
import { useTranslation } from '../../../lib/i18n';
import { useCompanySites } from '../../../lib/site';
import { toastDone, toastFailed, useInlineEdit } from '../../../lib/use-inline-edit';
import { createSite, updateSite, useSiteAction } from '../api/sites';
import { SiteForm } from '../components/SiteForm';
import { siteRequestLink, sitePosterPath, sortSites } from '../lib/sites';

export default function SitesPage() {
  const { t } = useTranslation('sites');
  const { domain = '' } = useParams();
  const { role } = useAuth();
  const queryClient = useQueryClient();
  const [archived, setArchived] = useState(false);
  const company = useCompany(domain);
  const settings = useSettings();
  const sites = useCompanySites(domain, { archived: true });
  const action = useSiteAction(domain);
  const manages = !!role && mayPerform(role, 'sites.manage');
  const slug = company.data?.slug ?? domain;
  const publicUrl = settings.data?.public_url ?? window.location.origin;

  const edit = useInlineEdit<Site, SiteInput>({
    t,
    save: async (input, editing) => {
      const answer =
        editing?.mode === 'edit'
          ? await updateSite(domain, editing.record.id, input)
          : await createSite(domain, input);
      await queryClient.invalidateQueries({ queryKey: ['sites'] });
      toastDone(answer, t(editing?.mode === 'edit' ? 'saved' : 'created'));
    },
  });

  const act = (kind: 'archive' | 'restore' | 'delete', site: Site) =>
    confirmAction({
      title: t(`confirm.${kind}.title`, { name: site.name }),
      body: t(`confirm.${kind}.body`, { name: site.name }),
      confirm: t(`confirm.${kind}.yes`),
      cancel: t('confirm.no'),
      danger: kind !== 'restore',
      onConfirm: () =>
        action.mutate(
          { action: kind, siteId: site.id },
          {
            onSuccess: (answer) => toastDone(answer, t(`done.${kind}`)),
            onError: (error) => toastFailed(error, t(`failed.${kind}`)),
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
              <RowActions>
                <RowButton
                  label={t('edit')}
                  ariaLabel={t('editOf', { name: site.name })}
                  onClick={() => edit.openEdit(site)}
                />
                {site.archived_at ? (
                  <RowButton
                    label={t('restore')}
                    ariaLabel={t('restoreOf', { name: site.name })}
                    onClick={() => act('restore', site)}
                  />
                ) : (
                  <RowButton
                    label={t('archive')}
                    ariaLabel={t('archiveOf', { name: site.name })}
                    color="orange"
                    onClick={() => act('archive', site)}
                  />
                )}
                <RowButton
                  label={t('delete')}
                  ariaLabel={t('deleteOf', { name: site.name })}
                  color="red"
                  onClick={() => act('delete', site)}
                />
              </RowActions>
            ),
          },
        ]
      : []),
  ];

  return (
    <Container size="lg">
      <ListHeader
        title={t('title')}
        intro={t('intro')}
        create={manages ? edit.createAction(t('create')) : undefined}
      />
      <Stack gap="md">
        {edit.editing && (
          <SiteForm
            key={edit.formKey}
            site={edit.record}
            feedback={edit.feedback}
            onSubmit={edit.submit}
            onCancel={() => edit.open(null)}
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
