/**
 * The company of a new record (spec §6 "Company choice"): ROLE_ADMIN and
 * ROLE_SESAME choose it among the companies (searched on the server); every
 * other role sees their own, by name, locked.
 */
import { useMemo, useState } from 'react';
import { Select, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useCompanyOptions, type CompanyOption } from '../lib/company';

export interface CompanySelectProps {
  /** Whether the signed-in role chooses (`mayChooseCompany`). */
  chooses: boolean;
  value: string;
  onChange: (id: string, company: CompanyOption | undefined) => void;
  /** Offered even when the search does not list it: the page's company, the record's own. */
  current?: CompanyOption | null;
  /** The locked company's name, for those who do not choose. */
  lockedName: string;
  label: string;
  placeholder: string;
  lockedDescription: string;
  nothingFound: string;
  error?: React.ReactNode;
  required?: boolean;
  /** The form field's name (the focus of a refused submit finds it by `data-path`). */
  name: string;
}

export function CompanySelect(props: CompanySelectProps) {
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search, 300);
  const options = useCompanyOptions(props.chooses, q);
  const { current } = props;
  const companies = useMemo(() => {
    const list = options.data ?? [];
    return current && !list.some((c) => c.id === current.id) ? [current, ...list] : list;
  }, [options.data, current]);

  if (!props.chooses) {
    return (
      <TextInput
        label={props.label}
        description={props.lockedDescription}
        value={props.lockedName}
        readOnly
        required={props.required}
        error={props.error}
        data-path={props.name}
        name="company_name"
      />
    );
  }
  return (
    <Select
      label={props.label}
      placeholder={props.placeholder}
      data={companies.map((c) => ({ value: c.id, label: c.name }))}
      value={props.value || null}
      onChange={(id) =>
        props.onChange(
          id ?? '',
          companies.find((c) => c.id === id),
        )
      }
      searchable
      onSearchChange={setSearch}
      nothingFoundMessage={props.nothingFound}
      required={props.required}
      error={props.error}
      data-path={props.name}
      name={props.name}
    />
  );
}
