/**
 * "Nom de l'hôte" (issue 15): a search among the company's staff — names only, the
 * server never answers an e-mail — with the typed text kept as a free-text host when
 * nobody matches (the front desk then gets the request). Choosing a name sets the
 * host's account; typing again forgets it.
 */
import { lazy, Suspense, useRef, useState, useTransition } from 'react';
import { TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useTranslation, withFrenchWords } from '../../lib/i18n';
import type { HostCandidate } from '@sesame/shared';
import { api } from '../../lib/api-client';
import hostLoopWords from '../../locales/fr/hostLoop.json';

// This screen's French words come with its code (lib/i18n).
withFrenchWords({ hostLoop: hostLoopWords });

const HostAutocomplete = lazy(() => import('./HostAutocomplete'));

/** The server's shortest search. */
const MIN_SEARCH = 2;

export interface HostFieldProps {
  companySlug: string;
  /** The site of the visit (issue 28): the search prefers its staff. */
  siteId?: string;
  label: string;
  value: string;
  hostUserId: string;
  error?: React.ReactNode;
  onChange: (host: { name: string; userId: string }) => void;
}

export function HostField({
  companySlug,
  siteId,
  label,
  value,
  hostUserId,
  error,
  onChange,
}: HostFieldProps) {
  const { t } = useTranslation('hostLoop');
  const [search] = useDebouncedValue(value.trim(), 250);
  // The name chosen last: Mantine sets the input's text right after the choice.
  const chosen = useRef<HostCandidate | null>(null);
  const enabled = search.length >= MIN_SEARCH && !hostUserId;
  const hosts = useQuery({
    queryKey: ['hosts', companySlug, search, siteId ?? null],
    queryFn: () =>
      api
        .get<{ data: HostCandidate[] }>(
          `/requests/hosts/${encodeURIComponent(companySlug)}?q=${encodeURIComponent(search)}${
            siteId ? `&site=${encodeURIComponent(siteId)}` : ''
          }`,
        )
        .then((r) => r.data),
    enabled,
    staleTime: 30_000,
    retry: false,
  });
  const candidates = enabled ? (hosts.data ?? []) : [];
  const names = [...new Set(candidates.map((h) => h.name))];
  const description = hostUserId
    ? t('host.chosen', { name: value })
    : enabled && hosts.isSuccess && candidates.length === 0
      ? t('host.noAccount')
      : undefined;

  // Until the person comes to the field, a plain text input stands in for the list: the
  // same label, value and name. Coming to it (focus, a pointer over it) loads the list as a
  // transition, so the field keeps the focus and what is typed until the list takes its
  // place with the same text (and the focus).
  const [wanted, setWanted] = useState(false);
  const [, startLoading] = useTransition();
  const want = () => {
    if (!wanted) startLoading(() => setWanted(true));
  };
  const common = {
    label,
    placeholder: t('host.placeholder'),
    value,
    description,
    error,
    maxLength: 200,
    autoComplete: 'off',
    name: 'host',
    'data-testid': 'host-field',
  };
  const standIn = (
    <TextInput
      {...common}
      role="combobox"
      aria-expanded={false}
      aria-autocomplete="list"
      onFocus={want}
      onPointerEnter={want}
      onChange={(event) => onChange({ name: event.currentTarget.value, userId: '' })}
    />
  );
  // One boundary from the first render: a transition then keeps what it shows (the
  // stand-in, focused) until the list's code is there, rather than show a fallback.
  return (
    <Suspense fallback={standIn}>
      {wanted ? (
        <HostAutocomplete
          {...common}
          autoFocus={document.activeElement?.getAttribute('name') === 'host'}
          data={names}
          filter={({ options }) => options}
          onChange={(text) => {
            if (chosen.current?.name !== text) chosen.current = null;
            onChange({ name: text, userId: chosen.current?.id ?? '' });
          }}
          onOptionSubmit={(name) => {
            chosen.current = candidates.find((h) => h.name === name) ?? null;
            onChange({ name, userId: chosen.current?.id ?? '' });
          }}
        />
      ) : (
        standIn
      )}
    </Suspense>
  );
}
