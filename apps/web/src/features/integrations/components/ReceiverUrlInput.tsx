/**
 * The https address Sésame posts to (issue 34): a webhook's receiver, a chat channel's incoming
 * webhook. The shared schemas (the server's own) check it; its length is WEBHOOK_LIMITS'.
 */
import { TextInput } from '@mantine/core';
import { WEBHOOK_LIMITS } from '@sesame/shared';
import type { InputProps } from '../../../lib/form-state';

export function ReceiverUrlInput(props: {
  label: string;
  description: string;
  /** The form's binding of its `url` field. */
  input: InputProps;
}) {
  return (
    <TextInput
      label={props.label}
      description={props.description}
      placeholder="https://"
      type="url"
      inputMode="url"
      autoComplete="off"
      maxLength={WEBHOOK_LIMITS.urlMax}
      required
      {...props.input}
      name="url"
    />
  );
}
