/**
 * The company of a new record (spec §6 "Company choice"): ROLE_ADMIN and
 * ROLE_SESAME choose it among the companies (searched on the server); every
 * other role sees their own, by name, locked. Every company can be reached: the
 * list shows the first 100, typing searches them all.
 */
import { useMemo, useState } from 'react';
import { Select, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { companySearchQuery, useCompanyOptions, type CompanyOption } from '../lib/company';

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
  const [chosen, setChosen] = useState<CompanyOption | undefined>(undefined);
  const { current } = props;
  const chosenName = (chosen?.id === props.value ? chosen : current)?.name;
  const [q] = useDebouncedValue(companySearchQuery(search, chosenName), 300);
  const options = useCompanyOptions(props.chooses, q);
  const companies = useMemo(() => {
    const list = options.data ?? [];
    const kept = [current, chosen].filter(
      (c): c is CompanyOption => !!c && !list.some((listed) => listed.id === c.id),
    );
    return [...kept.filter((c, i) => kept.findIndex((k) => k.id === c.id) === i), ...list];
  }, [options.data, current, chosen]);

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
      onChange={(id) => {
        const company = companies.find((c) => c.id === id);
        setChosen(company);
        props.onChange(id ?? '', company);
      }}
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
