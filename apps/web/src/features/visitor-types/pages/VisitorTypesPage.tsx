/**
 * `/{domain}/visitor-types` (issue 31): a site's visitor types — how each kind of visitor
 * comes in: the fields they give, the documents they sign, the host's approval, their badge's
 * band and automatic check-out — and, in a second tab, the site's documents to sign, each
 * edit a new version. Types are archived (and restored), never deleted: past visits name them.
 */
import { useState } from 'react';
import {
  Badge,
  ColorSwatch,
  Container,
  Group,
  Select,
  Stack,
  Switch,
  Tabs,
  Text,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useParams } from 'react-router';
import type { DocumentInput, SiteDocument, VisitorType, VisitorTypeInput } from '@sesame/shared';
import { ListHeader } from '../../../components/ListHeader';
import { QueryRows } from '../../../components/QueryRows';
import { RowActions, RowButton, useRecordAction } from '../../../components/RowActions';
import type { Column } from '../../../components/RowsTable';
import { useTranslation } from '../../../lib/i18n';
import { useCompanySites, useSiteChoice } from '../../../lib/site';
import { toastDone, useInlineEdit } from '../../../lib/use-inline-edit';
import {
  archiveDocument,
  archiveVisitorType,
  createDocument,
  createVisitorType,
  documentKeys,
  updateDocument,
  updateVisitorType,
  useSiteDocuments,
  useVisitorTypes,
  visitorTypeKeys,
} from '../api/visitor-types';
import { DocumentForm } from '../components/DocumentForm';
import { VersionsModal } from '../components/VersionsModal';
import { VisitorTypeForm } from '../components/VisitorTypeForm';
import '@mantine/core/styles/Tabs.css';
import '@mantine/core/styles/Switch.css';
import '@mantine/core/styles/ColorSwatch.css';

export default function VisitorTypesPage() {
  const { t, i18n } = useTranslation('visitor-types');
  const { domain = '' } = useParams();
  const queryClient = useQueryClient();
  const choice = useSiteChoice();
  const sitesQuery = useCompanySites(domain);
  const sites = sitesQuery.data ?? [];
  const [picked, setPicked] = useState<string | null>(null);
  // The header's site first, else the company's first site.
  const siteId =
    (picked && sites.some((s) => s.id === picked) ? picked : undefined) ??
    (choice.siteId && sites.some((s) => s.id === choice.siteId) ? choice.siteId : undefined) ??
    sites[0]?.id;
  const site = sites.find((s) => s.id === siteId);
  const [tab, setTab] = useState<string | null>('types');
  const [showArchived, setShowArchived] = useState(false);
  const [versionsOf, setVersionsOf] = useState<SiteDocument | null>(null);
  const types = useVisitorTypes(domain, siteId, showArchived);
  const documents = useSiteDocuments(domain, siteId);
  const english = i18n.language === 'en';
  const typeName = (type: VisitorType) => (english ? type.name_en : type.name_fr);
  const docTitle = (doc: { title_fr: string; title_en: string }) =>
    english ? doc.title_en : doc.title_fr;

  const refreshTypes = () =>
    queryClient.invalidateQueries({ queryKey: visitorTypeKeys.all(domain) });
  const refreshDocuments = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: documentKeys.all(domain) }),
      // A type lists its documents' titles and versions.
      refreshTypes(),
    ]);

  const typeEdit = useInlineEdit<VisitorType, VisitorTypeInput>({
    t,
    save: async (input, editing) => {
      if (editing?.mode === 'edit') {
        toastDone(await updateVisitorType(domain, editing.record.id, input), t('types.saved'));
      } else {
        toastDone(await createVisitorType(domain, input), t('types.created'));
      }
      await refreshTypes();
    },
  });

  const documentEdit = useInlineEdit<SiteDocument, DocumentInput>({
    t,
    save: async (input, editing) => {
      if (editing?.mode === 'edit') {
        const answer = await updateDocument(domain, editing.record.id, input);
        const version = answer.data.version;
        toastDone(
          answer,
          version > editing.record.version
            ? t('documents.versioned', { version })
            : t('documents.unchanged'),
        );
      } else {
        toastDone(await createDocument(domain, input), t('documents.created'));
      }
      await refreshDocuments();
    },
  });

  const archiveType = useRecordAction({
    run: (type: VisitorType) => archiveVisitorType(domain, type.id, type.archived),
    done: (type) => (type.archived ? t('types.restored') : t('types.archived')),
    failed: (type) => (type.archived ? t('types.restoreFailed') : t('types.archiveFailed')),
    refresh: refreshTypes,
    confirm: (type) => ({
      title: t('types.confirm.title', { name: typeName(type) }),
      body: t('types.confirm.body'),
      confirm: t('types.confirm.yes'),
      cancel: t('types.confirm.no'),
    }),
  });

  const archiveDoc = useRecordAction({
    run: (doc: SiteDocument) => archiveDocument(domain, doc.id),
    done: t('documents.archived'),
    failed: t('documents.archiveFailed'),
    refresh: refreshDocuments,
    confirm: (doc) => ({
      title: t('documents.confirm.title', { title: docTitle(doc) }),
      body: t('documents.confirm.body'),
      confirm: t('documents.confirm.yes'),
      cancel: t('documents.confirm.no'),
    }),
  });

  const typeColumns: Column<VisitorType>[] = [
    {
      key: 'name',
      header: t('columns.name'),
      card: 'title',
      render: (type) => (
        <Group gap="xs" wrap="nowrap">
          <ColorSwatch color={type.color} size={18} aria-hidden />
          <Stack gap={0}>
            <Text fw={600} size="sm" data-testid="visitor-type-name">
              {typeName(type)}
            </Text>
            <Text size="xs" c="dimmed" lang={english ? 'fr' : 'en'}>
              {english ? type.name_fr : type.name_en}
            </Text>
          </Stack>
          {type.archived && (
            <Badge variant="light" color="gray">
              {t('types.archivedBadge')}
            </Badge>
          )}
        </Group>
      ),
    },
    {
      key: 'color',
      header: t('columns.color'),
      render: (type) => (
        <Text size="sm" ff="monospace">
          {type.color}
        </Text>
      ),
    },
    {
      key: 'fields',
      header: t('columns.requiredFields'),
      render: (type) =>
        type.required_fields.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('types.noFields')}
          </Text>
        ) : (
          <Group gap={4}>
            {type.required_fields.map((field) => (
              <Badge key={field} variant="light" size="sm">
                {t(`requiredFields.${field}`)}
              </Badge>
            ))}
          </Group>
        ),
    },
    {
      key: 'documents',
      header: t('columns.documents'),
      render: (type) =>
        type.documents.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('types.noDocuments')}
          </Text>
        ) : (
          <Stack gap={2}>
            {type.documents.map((doc) => (
              <Text size="sm" key={doc.document_id}>
                {t('types.documentLine', {
                  title: docTitle(doc),
                  validity:
                    doc.validity === 'days'
                      ? t('validity.daysCount', { count: doc.validity_days ?? 0 })
                      : t(`validity.${doc.validity}`),
                })}
              </Text>
            ))}
          </Stack>
        ),
    },
    {
      key: 'approval',
      header: t('columns.hostApproval'),
      render: (type) => (type.host_approval ? t('types.approvalYes') : t('types.approvalNo')),
    },
    {
      key: 'checkout',
      header: t('columns.autoCheckOut'),
      render: (type) => type.auto_check_out_at ?? t('types.siteDayEnd'),
    },
    {
      key: 'actions',
      header: t('columns.actions'),
      card: 'actions',
      render: (type) => (
        <RowActions>
          <RowButton
            label={t('edit')}
            ariaLabel={t('types.editOf', { name: typeName(type) })}
            onClick={() => typeEdit.openEdit(type)}
          />
          <RowButton
            label={type.archived ? t('types.restore') : t('types.archive')}
            ariaLabel={
              type.archived
                ? t('types.restoreOf', { name: typeName(type) })
                : t('types.archiveOf', { name: typeName(type) })
            }
            color={type.archived ? undefined : 'red'}
            loading={archiveType.busy(type.id)}
            // An archived type comes back at once; archiving one asks first.
            onClick={() => (type.archived ? archiveType.mutate(type) : archiveType.ask(type))}
          />
        </RowActions>
      ),
    },
  ];

  const documentColumns: Column<SiteDocument>[] = [
    {
      key: 'title',
      header: t('columns.title'),
      card: 'title',
      render: (doc) => (
        <Group gap="xs">
          <Text fw={600} size="sm" data-testid="document-title">
            {docTitle(doc)}
          </Text>
          {doc.archived && (
            <Badge variant="light" color="gray">
              {t('documents.archivedBadge')}
            </Badge>
          )}
        </Group>
      ),
    },
    {
      key: 'version',
      header: t('columns.version'),
      render: (doc) => (
        <Text size="sm" data-testid="document-version">
          {t('documents.version', { version: doc.version })}
        </Text>
      ),
    },
    {
      key: 'actions',
      header: t('columns.actions'),
      card: 'actions',
      render: (doc) => (
        <RowActions>
          <RowButton
            label={t('edit')}
            ariaLabel={t('documents.editOf', { title: docTitle(doc) })}
            onClick={() => documentEdit.openEdit(doc)}
          />
          <RowButton
            label={t('documents.versions')}
            ariaLabel={t('documents.versionsOf', { title: docTitle(doc) })}
            onClick={() => setVersionsOf(doc)}
          />
          {!doc.archived && (
            <RowButton
              label={t('documents.archive')}
              ariaLabel={t('documents.archiveOf', { title: docTitle(doc) })}
              color="red"
              loading={archiveDoc.busy(doc.id)}
              onClick={() => archiveDoc.ask(doc)}
            />
          )}
        </RowActions>
      ),
    },
  ];

  return (
    <Container size="lg">
      <ListHeader
        title={t('title')}
        intro={t('intro')}
        create={
          !siteId
            ? undefined
            : tab === 'documents'
              ? { label: t('documents.create'), onClick: documentEdit.openCreate }
              : { label: t('types.create'), onClick: typeEdit.openCreate }
        }
      />
      <Stack gap="md">
        <Select
          label={t('site')}
          data={sites.map((s) => ({ value: s.id, label: s.name }))}
          value={siteId ?? null}
          onChange={(value) => setPicked(value)}
          allowDeselect={false}
          maw={360}
          disabled={sites.length === 0}
          data-testid="visitor-types-site"
        />
        <Tabs value={tab} onChange={setTab}>
          <Tabs.List>
            <Tabs.Tab value="types">{t('tabs.types')}</Tabs.Tab>
            <Tabs.Tab value="documents">{t('tabs.documents')}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="types" pt="md">
            <Stack gap="sm">
              <Switch
                label={t('types.showArchived')}
                checked={showArchived}
                onChange={(event) => setShowArchived(event.currentTarget.checked)}
              />
              <QueryRows
                query={types}
                loadFailed={t('types.loadFailed')}
                empty={t('types.empty')}
                order={(rows) =>
                  [...rows].sort(
                    (a, b) => Number(a.archived) - Number(b.archived) || a.position - b.position,
                  )
                }
                columns={typeColumns}
                rowKey={(type) => type.id}
                label={t('tabs.types')}
                minWidth={960}
              />
            </Stack>
          </Tabs.Panel>
          <Tabs.Panel value="documents" pt="md">
            <Stack gap="sm">
              <Text size="sm" c="dimmed">
                {t('documents.intro')}
              </Text>
              <QueryRows
                query={documents}
                loadFailed={t('documents.loadFailed')}
                empty={t('documents.empty')}
                order={(rows) => [...rows].sort((a, b) => Number(a.archived) - Number(b.archived))}
                columns={documentColumns}
                rowKey={(doc) => doc.id}
                label={t('tabs.documents')}
                minWidth={640}
              />
            </Stack>
          </Tabs.Panel>
        </Tabs>
      </Stack>
      {typeEdit.editing && siteId && (
        <VisitorTypeForm
          key={typeEdit.formKey}
          type={typeEdit.record}
          siteId={siteId}
          documents={documents.data ?? []}
          feedback={typeEdit.feedback}
          onSubmit={typeEdit.submit}
          onClose={typeEdit.close}
        />
      )}
      {documentEdit.editing && siteId && (
        <DocumentForm
          key={documentEdit.formKey}
          document={documentEdit.record}
          siteId={siteId}
          feedback={documentEdit.feedback}
          onSubmit={documentEdit.submit}
          onClose={documentEdit.close}
        />
      )}
      {versionsOf && (
        <VersionsModal
          company={domain}
          document={versionsOf}
          timezone={site?.timezone}
          onClose={() => setVersionsOf(null)}
        />
      )}
    </Container>
  );
}
