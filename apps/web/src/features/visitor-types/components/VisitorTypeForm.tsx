/**
 * A visitor type's form (issue 31), in a modal: names, badge colour, the fields the visitor
 * must give, the host's approval, the automatic check-out and the documents to sign with how
 * long each signature lasts. The shared `visitorTypeInputSchema` checks it here and again on
 * the server; the server's field errors come back under their field.
 */
import {
  Checkbox,
  ColorInput,
  Grid,
  Group,
  Modal,
  NumberInput,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import {
  VISITOR_TYPE_FIELDS,
  VISITOR_TYPE_LIMITS,
  visitorTypeInputSchema,
  type SignatureValidity,
  type SiteDocument,
  type VisitorType,
  type VisitorTypeField,
  type VisitorTypeInput,
} from '@sesame/shared';
import type { Feedback } from '../../../components/FeedbackAlert';
import { SaveOrCancel, SubmitSummary } from '../../../components/FormFrame';
import { useTranslation } from '../../../lib/i18n';
import { useSchemaForm } from '../../../lib/use-schema-form';
import {
  TYPE_SWATCHES,
  VALIDITY_OPTIONS,
  toggleDocument,
  typeInput,
  typeValues,
  type TypeDocumentValue,
} from '../lib/visitor-types';
import '@mantine/core/styles/Switch.css';
import '@mantine/core/styles/ColorSwatch.css';
import '@mantine/core/styles/ColorPicker.css';
import '@mantine/core/styles/ColorInput.css';
import '@mantine/core/styles/NumberInput.css';

export function VisitorTypeForm(props: {
  type?: VisitorType;
  siteId: string;
  /** The site's documents (active ones, and any the type still lists). */
  documents: SiteDocument[];
  feedback: Feedback | null;
  onSubmit: (input: VisitorTypeInput) => Promise<Record<string, string> | undefined>;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation('visitor-types');
  const { type } = props;
  const { form, submit, summary, busy } = useSchemaForm(visitorTypeInputSchema, {
    ns: 'visitor-types',
    initialValues: typeValues(type, props.siteId),
    toInput: typeInput,
    fieldOf: { documents: 'documents' },
    onSubmit: (data) => props.onSubmit(data),
  });
  const english = i18n.language === 'en';
  const docTitle = (doc: SiteDocument) => (english ? doc.title_en : doc.title_fr);
  const setDocuments = (documents: TypeDocumentValue[]) =>
    form.setFieldValue('documents', documents);
  const chosen = form.values.documents;
  const shown = props.documents.filter(
    (doc) => !doc.archived || chosen.some((c) => c.document_id === doc.id),
  );

  const updateDocument = (documentId: string, change: Partial<TypeDocumentValue>) =>
    setDocuments(
      chosen.map((doc) => (doc.document_id === documentId ? { ...doc, ...change } : doc)),
    );

  return (
    <Modal
      opened
      onClose={props.onClose}
      size="lg"
      title={
        type
          ? t('typeForm.editTitle', { name: english ? type.name_en : type.name_fr })
          : t('typeForm.createTitle')
      }
      closeButtonProps={{ 'aria-label': t('form.close') }}
    >
      <form onSubmit={submit} noValidate data-testid="visitor-type-form">
        <Stack gap="md">
          <SubmitSummary summary={summary} feedback={props.feedback} />
          <Grid gap="md">
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput
                label={t('fields.name_fr')}
                required
                maxLength={100}
                autoComplete="off"
                data-autofocus
                {...form.getInputProps('name_fr')}
                name="name_fr"
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput
                label={t('fields.name_en')}
                required
                maxLength={100}
                autoComplete="off"
                lang="en"
                {...form.getInputProps('name_en')}
                name="name_en"
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <ColorInput
                label={t('fields.color')}
                description={t('typeForm.colorHint')}
                required
                format="hex"
                // The eye-dropper is a pointer-only tool with no name of its own.
                withEyeDropper={false}
                swatches={[...TYPE_SWATCHES]}
                swatchesPerRow={8}
                {...form.getInputProps('color')}
                name="color"
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput
                label={t('fields.auto_check_out_at')}
                description={t('typeForm.autoCheckOutHint')}
                type="time"
                {...form.getInputProps('auto_check_out_at')}
                name="auto_check_out_at"
              />
            </Grid.Col>
            <Grid.Col span={12}>
              <Checkbox.Group
                label={t('fields.required_fields')}
                description={t('typeForm.requiredHint')}
                value={form.values.required_fields}
                onChange={(value) =>
                  form.setFieldValue('required_fields', value as VisitorTypeField[])
                }
                error={form.getInputProps('required_fields').error}
              >
                <Group gap="lg" mt={6}>
                  {VISITOR_TYPE_FIELDS.map((field, i) => (
                    <Checkbox
                      key={field}
                      value={field}
                      label={t(`requiredFields.${field}`)}
                      name="required_fields"
                      data-path={i === 0 ? 'required_fields' : undefined}
                    />
                  ))}
                </Group>
              </Checkbox.Group>
            </Grid.Col>
            <Grid.Col span={12}>
              <Switch
                label={t('fields.host_approval')}
                description={t('typeForm.hostApprovalHint')}
                {...form.getInputProps('host_approval', { type: 'checkbox' })}
                name="host_approval"
              />
            </Grid.Col>
            <Grid.Col span={12}>
              <Stack gap="xs" role="group" aria-labelledby="visitor-type-documents">
                <Text id="visitor-type-documents" size="sm" fw={700}>
                  {t('fields.documents')}
                </Text>
                {shown.length === 0 ? (
                  <Text size="sm" c="dimmed">
                    {t('typeForm.noDocuments')}
                  </Text>
                ) : (
                  shown.map((doc) => {
                    const value = chosen.find((c) => c.document_id === doc.id);
                    return (
                      <Stack key={doc.id} gap={6}>
                        <Checkbox
                          label={t('typeForm.documentLabel', {
                            title: docTitle(doc),
                            version: doc.version,
                          })}
                          checked={!!value}
                          onChange={(event) =>
                            setDocuments(
                              toggleDocument(chosen, doc.id, event.currentTarget.checked),
                            )
                          }
                          data-path={doc === shown[0] ? 'documents' : undefined}
                        />
                        {value && (
                          <Group align="flex-end" gap="sm" ml={32} wrap="wrap">
                            <Select
                              label={t('typeForm.validity')}
                              aria-label={t('typeForm.validityOf', { title: docTitle(doc) })}
                              data={VALIDITY_OPTIONS.map((v) => ({
                                value: v,
                                label: t(`validity.${v}`),
                              }))}
                              value={value.validity}
                              onChange={(v) =>
                                updateDocument(doc.id, {
                                  validity: (v ?? 'visit') as SignatureValidity,
                                })
                              }
                              allowDeselect={false}
                              w={240}
                            />
                            {value.validity === 'days' && (
                              <NumberInput
                                label={t('fields.validity_days')}
                                aria-label={t('typeForm.daysOf', { title: docTitle(doc) })}
                                min={1}
                                max={VISITOR_TYPE_LIMITS.validityDaysMax}
                                value={value.validity_days}
                                onChange={(v) =>
                                  updateDocument(doc.id, { validity_days: String(v) })
                                }
                                w={160}
                                required
                              />
                            )}
                          </Group>
                        )}
                      </Stack>
                    );
                  })
                )}
                {form.errors.documents && (
                  <Text size="sm" c="red.8" role="alert">
                    {form.errors.documents}
                  </Text>
                )}
              </Stack>
            </Grid.Col>
          </Grid>
          <SaveOrCancel
            feedback={props.feedback}
            busy={busy}
            submitLabel={type ? t('form.save') : t('form.create')}
            cancelLabel={t('form.cancel')}
            onCancel={props.onClose}
          />
        </Stack>
      </form>
    </Modal>
  );
}
