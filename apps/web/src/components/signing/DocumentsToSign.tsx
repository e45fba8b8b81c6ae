/**
 * A visitor form's documents to sign (the public visitor form, the invitation's details): the
 * signing step, loaded on demand, whose signatures the form keeps and whose missing signature
 * it says under it. Each page gives its own heading above.
 */
import { Text } from '@mantine/core';
import type { SignatureInput } from '@sesame/shared';
import { LazySignDocuments } from './LazySignDocuments';
import type { SignDocumentsProps } from './SignDocuments';

export function DocumentsToSign(props: {
  documents: SignDocumentsProps['documents'];
  /** The signer's name as the form knows it (prefilled, still editable). */
  name: string;
  loadingLabel: string;
  /** The form's own: its `signatures` error, cleared once they are signed. */
  form: {
    errors: Readonly<Record<string, string | undefined>>;
    clearFieldError: (field: string) => void;
  };
  onSigned: (signatures: SignatureInput[] | null) => void;
  /** Other documents (another type, a new version): the step starts again. */
  resetKey?: string;
}) {
  const { form } = props;
  return (
    <>
      <LazySignDocuments
        key={props.resetKey}
        documents={props.documents}
        name={props.name}
        headingLevel={3}
        loadingLabel={props.loadingLabel}
        onSigned={(signed) => {
          props.onSigned(signed);
          form.clearFieldError('signatures');
        }}
      />
      {form.errors.signatures && (
        <Text c="red.8" size="sm" role="alert">
          {form.errors.signatures}
        </Text>
      )}
    </>
  );
}
