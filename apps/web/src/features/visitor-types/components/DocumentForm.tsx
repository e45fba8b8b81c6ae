/**
 * A document to sign's form (issue 31), in a modal: its title and Markdown text in French and
 * in English, each with its preview. Saving a changed title or text writes a new version (the
 * form says so before and the page after); the shared `documentInputSchema` checks it.
 */
import { Alert, Grid, Modal, Paper, Stack, Tabs, Text, TextInput, Textarea } from '@mantine/core';
import {
  VISITOR_TYPE_LIMITS,
  documentInputSchema,
  type DocumentInput,
  type SiteDocument,
} from '@sesame/shared';
import type { Feedback } from '../../../components/FeedbackAlert';
import { SaveOrCancel, SubmitSummary } from '../../../components/FormFrame';
import { useTranslation } from '../../../lib/i18n';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { documentValues, makesNewVersion } from '../lib/visitor-types';
import { DocumentText } from '../../../components/signing/DocumentText';
import '@mantine/core/styles/Tabs.css';

export function DocumentForm(props: {
  document?: SiteDocument;
  siteId: string;
  feedback: Feedback | null;
  onSubmit: (input: DocumentInput) => Promise<Record<string, string> | undefined>;
  onClose: () => void;
}) {
  const { t } = useTranslation('visitor-types');
  const { document: doc } = props;
  const { form, submit, summary, busy } = useSchemaForm(documentInputSchema, {
    ns: 'visitor-types',
    initialValues: documentValues(doc, props.siteId),
    onSubmit: (data) => props.onSubmit(data),
  });
  const newVersion = doc ? makesNewVersion(doc, form.values) : false;

  const language = (lang: 'fr' | 'en') => (
    <Grid gap="md">
      <Grid.Col span={12}>
        <TextInput
          label={t(`fields.title_${lang}`)}
          required
          maxLength={VISITOR_TYPE_LIMITS.titleMax}
          lang={lang}
          {...form.getInputProps(`title_${lang}`)}
          name={`title_${lang}`}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 6 }}>
        <Textarea
          label={t(`fields.body_${lang}`)}
          description={t('documentForm.markdownHint')}
          required
          autosize
          minRows={10}
          maxRows={24}
          lang={lang}
          {...form.getInputProps(`body_${lang}`)}
          name={`body_${lang}`}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 6 }}>
        <Text size="sm" fw={500} id={`document-preview-${lang}`} mb={4}>
          {t('documentForm.preview')}
        </Text>
        <Paper
          withBorder
          p="sm"
          radius="md"
          component="section"
          aria-labelledby={`document-preview-${lang}`}
          mih={200}
        >
          {form.values[`body_${lang}`].trim() === '' ? (
            <Text size="sm" c="dimmed">
              {t('documentForm.previewEmpty')}
            </Text>
          ) : (
            <div lang={lang}>
              <DocumentText source={form.values[`body_${lang}`]} headingLevel={4} />
            </div>
          )}
        </Paper>
      </Grid.Col>
    </Grid>
  );

  return (
    <Modal
      opened
      onClose={props.onClose}
      size="80rem"
      title={
        doc
          ? t('documentForm.editTitle', { title: doc.title_fr, version: doc.version })
          : t('documentForm.createTitle')
      }
      closeButtonProps={{ 'aria-label': t('form.close') }}
    >
      <form onSubmit={submit} noValidate data-testid="document-form">
        <Stack gap="md">
          <SubmitSummary summary={summary} feedback={props.feedback} />
          <Tabs defaultValue="fr" keepMounted>
            <Tabs.List>
              <Tabs.Tab value="fr">{t('documentForm.french')}</Tabs.Tab>
              <Tabs.Tab value="en">{t('documentForm.english')}</Tabs.Tab>
            </Tabs.List>
            <Tabs.Panel value="fr" pt="md">
              {language('fr')}
            </Tabs.Panel>
            <Tabs.Panel value="en" pt="md">
              {language('en')}
            </Tabs.Panel>
          </Tabs>
          {doc && newVersion && (
            <Alert color="blue" role="status">
              {t('documentForm.newVersionNotice', { version: doc.version + 1 })}
            </Alert>
          )}
          <SaveOrCancel
            feedback={props.feedback}
            busy={busy}
            submitLabel={doc ? t('form.save') : t('form.create')}
            cancelLabel={t('form.cancel')}
            onCancel={props.onClose}
          />
        </Stack>
      </form>
    </Modal>
  );
}
