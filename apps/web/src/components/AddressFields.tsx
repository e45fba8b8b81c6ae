/**
 * A postal address in a form's grid (a company's, a site's): the street across the row, then
 * the form's other lines in its own order. Each text input carries the browser's autofill
 * token, so that an address the browser keeps fills the form; the country is chosen from the
 * list. The words are the form's namespace's: `fields.<line>` and `form.countryPlaceholder`.
 */
import { Fragment } from 'react';
import { TextInput } from '@mantine/core';
import type { InputProps } from '../lib/form-state';
import type { TFunction } from '../lib/i18n';
import { CountrySelect } from './CountrySelect';
import { col } from './InlineForm';

/** The lines after the street, as the forms name their fields. */
export type AddressLine = 'city' | 'state' | 'zipcode' | 'country';
type TextLine = Exclude<AddressLine, 'country'> | 'address';

/** The WHATWG autofill token of each text line. */
const AUTOFILL: Record<TextLine, string> = {
  address: 'street-address',
  city: 'address-level2',
  state: 'address-level1',
  zipcode: 'postal-code',
};

export function AddressFields<Line extends AddressLine>(props: {
  /** The lines after the street, in the form's order. */
  lines: readonly Line[];
  /** Every line must be filled (a company's); else each may stay blank, the country cleared. */
  required: boolean;
  /** The form's bindings (lib/form-state) of these fields. */
  form: {
    getInputProps: (field: Exclude<Line, 'country'> | 'address') => InputProps;
    getSelectProps: (field: 'country') => InputProps;
  };
  t: TFunction;
}) {
  const { form, t, required } = props;
  const isText = (line: Line): line is Exclude<Line, 'country'> => line !== 'country';
  const text = (field: Exclude<Line, 'country'> | 'address') => (
    <TextInput
      label={t(`fields.${field}`)}
      {...form.getInputProps(field)}
      required={required}
      name={field}
      autoComplete={AUTOFILL[field]}
    />
  );
  const country = (
    <CountrySelect
      label={t('fields.country')}
      placeholder={t('form.countryPlaceholder')}
      {...form.getSelectProps('country')}
      required={required}
      clearable={!required}
      name="country"
    />
  );
  return (
    <>
      {col(text('address'), 12)}
      {props.lines.map((line) => (
        <Fragment key={line}>{col(isText(line) ? text(line) : country)}</Fragment>
      ))}
    </>
  );
}
