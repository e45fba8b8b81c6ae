import { Select, type SelectProps } from '@mantine/core';
import { COUNTRIES } from '@sesame/shared';

const DATA = [...COUNTRIES];

/** The country list of the forms (Côte d’Ivoire first), searchable. */
export function CountrySelect(props: Omit<SelectProps, 'data'>) {
  return <Select searchable data={DATA} nothingFoundMessage="—" {...props} />;
}
