/**
 * The visitor's identity document as a form asks it (the public visitor form, the invitation's
 * details): an image or a PDF, within the size its hint quotes. A file picked is checked at
 * once; no file yet is said on submit.
 */
import { FileInput } from '@mantine/core';
import { ID_DOCUMENT_TYPES, ID_FILE_MAX_BYTES, megabytes } from '@sesame/shared';
import type { SchemaForm } from '../../lib/use-schema-form';

const ACCEPT = ID_DOCUMENT_TYPES.join(',');
/** The identity document's limit, as the hint and the message quote it. */
export const ID_FILE_MO = megabytes(ID_FILE_MAX_BYTES);

export function IdentityDocumentField<Values extends { request_image: File | null }>(props: {
  schemaForm: Pick<SchemaForm<Values>, 'form' | 'validateField'>;
  label: string;
  description: string;
  placeholder: string;
  /** The clear button's name (it shows once a file is picked: axe button-name). */
  clearLabel: string;
  required: boolean;
}) {
  const { form, validateField } = props.schemaForm;
  return (
    <FileInput
      label={props.label}
      description={props.description}
      placeholder={props.placeholder}
      accept={ACCEPT}
      {...form.getInputProps('request_image')}
      onChange={(picked) => {
        form.setFieldValue('request_image', picked as Values['request_image']);
        if (picked) validateField('request_image', { ...form.values, request_image: picked });
      }}
      clearable
      clearButtonProps={{ 'aria-label': props.clearLabel }}
      required={props.required}
      name="request_image"
    />
  );
}
