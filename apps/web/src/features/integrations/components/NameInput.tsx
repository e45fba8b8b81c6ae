/**
 * The name a company gives what it connects (issue 34): an API key, a chat channel. Only its
 * staff read it, to tell one from another in the list: required, bounded by the record's own
 * limit (the shared schema's), and no autofill (it is no person's name).
 */
import { TextInput } from '@mantine/core';
import type { InputProps } from '../../../lib/form-state';

export function NameInput(props: {
  label: string;
  placeholder: string;
  maxLength: number;
  /** The form's binding of its `name` field. */
  input: InputProps;
}) {
  return (
    <TextInput
      label={props.label}
      placeholder={props.placeholder}
      maxLength={props.maxLength}
      autoComplete="off"
      required
      {...props.input}
      name="name"
    />
  );
}
