/**
 * "Importer un CSV" (issue 30): the columns the file names, the template to download, the
 * file; once checked by the server (`dry_run`), either the visitors it holds (the first lines)
 * with "Envoyer les N invitations", or its refused lines one by one — nothing created.
 */
import { Alert, Button, Code, FileInput, Group, List, Stack, Text, Title } from '@mantine/core';
import { INVITATION_LIMITS, megabytes, type InvitationCsvError } from '@sesame/shared';
import { PanelSection } from '../../../components/InlineForm';
import { RowsTable, type Column } from '../../../components/RowsTable';
import { TableScroll } from '../../../components/TableScroll';
import { useTranslation } from '../../../lib/i18n';
import { saveBlob } from '../../../lib/save-blob';
import type { ImportPreview } from '../api/invitations';
import { csvColumns, csvErrorLine, csvTemplateFile, type Lang } from '../lib/invitations';
import '@mantine/core/styles/Code.css';
import '@mantine/core/styles/List.css';

/** Lines of a checked file shown before sending. */
export const PREVIEW_LINES = 10;

export function CsvImport(props: {
  file: File | null;
  onFile: (file: File | null) => void;
  fileError: string | undefined;
  preview: ImportPreview | null;
  refused: { message: string; lines: InvitationCsvError[] } | null;
  sending: boolean;
  onSend: () => void;
}) {
  const { t, i18n } = useTranslation('invitations');
  const lang: Lang = i18n.language.startsWith('en') ? 'en' : 'fr';
  const { preview, refused } = props;

  const downloadTemplate = () => {
    const { text, name } = csvTemplateFile(lang);
    saveBlob(new Blob([text], { type: 'text/csv;charset=utf-8' }), name);
  };

  type Line = ImportPreview['visitors'][number] & { n: number };
  const columns: Column<Line>[] = (
    ['firstname', 'lastname', 'email', 'phone', 'organisation'] as const
  ).map((field) => ({
    key: field,
    header: t(`fields.${field}`),
    render: (line: Line) => line[field],
  }));

  return (
    <Stack gap="md">
      <Text>{t('csv.columnsIntro')}</Text>
      <Group gap="xs" aria-label={t('csv.columnsLabel')} role="list">
        {csvColumns(lang).map((name) => (
          <Code key={name} role="listitem" fz="sm">
            {name}
          </Code>
        ))}
      </Group>
      <Text size="sm" c="dimmed">
        {t('csv.rules', { mo: megabytes(INVITATION_LIMITS.csvMaxBytes) })}
      </Text>
      <div>
        <Button variant="light" onClick={downloadTemplate}>
          {t('csv.template')}
        </Button>
      </div>
      <FileInput
        label={t('csv.file')}
        placeholder={t('csv.filePlaceholder')}
        accept=".csv,text/csv"
        value={props.file}
        onChange={props.onFile}
        error={props.fileError}
        data-path="file"
        required
        clearable
        clearButtonProps={{ 'aria-label': t('csv.clearFile') }}
        name="file"
      />
      {refused && (
        <Alert
          color="red"
          role="alert"
          title={refused.message || t('csv.refused')}
          data-testid="csv-errors"
        >
          <List size="sm" spacing={4}>
            {refused.lines.map((line, i) => (
              <List.Item key={`${line.line}-${line.field ?? ''}-${i}`}>
                {csvErrorLine(line, lang, t)}
              </List.Item>
            ))}
          </List>
        </Alert>
      )}
      {preview && (
        <PanelSection titleId="csv-preview-title" data-testid="csv-preview">
          <Stack gap="sm">
            <Title order={3} size="h4" id="csv-preview-title" tabIndex={-1}>
              {t('csv.previewTitle', { count: preview.count })}
            </Title>
            <TableScroll label={t('csv.previewTable')}>
              <RowsTable
                columns={columns}
                rows={preview.visitors.slice(0, PREVIEW_LINES).map((line, n) => ({ ...line, n }))}
                rowKey={(line) => String(line.n)}
                offset={0}
              />
            </TableScroll>
            {preview.count > PREVIEW_LINES && (
              <Text size="sm" c="dimmed">
                {t('csv.more', { count: preview.count - PREVIEW_LINES })}
              </Text>
            )}
            <div>
              <Button onClick={props.onSend} loading={props.sending} data-testid="csv-send">
                {t('csv.send', { count: preview.count })}
              </Button>
            </div>
          </Stack>
        </PanelSection>
      )}
    </Stack>
  );
}
