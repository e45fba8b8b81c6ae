import { Select, type SelectProps } from '@mantine/core';
import { useCountryOptions } from '../lib/country-options';

/** The country list of the forms (Côte d'Ivoire first), searchable. */
export function CountrySelect(props: Omit<SelectProps, 'data'>) {
  const data = useCountryOptions(props.value);
  return <Select searchable data={data} nothingFoundMessage="—" {...props} />;
}
