/**
 * The host field's suggestions list (Mantine's Autocomplete, with its floating
 * positioning): loaded when the person first comes to the field (HostField), not with
 * the form (issue 19).
 */
import { Autocomplete, type AutocompleteProps } from '@mantine/core';

export default function HostAutocomplete(props: AutocompleteProps) {
  return <Autocomplete {...props} />;
}
