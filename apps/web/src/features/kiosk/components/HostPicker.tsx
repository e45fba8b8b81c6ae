/**
 * "Personne visitée" at the kiosk: the company's host search (names only, the kiosk's site
 * first), its answers as large buttons — no list to scroll or drag. Nobody chosen: the
 * front desk is told.
 */
import { useEffect, useRef, useState } from 'react';
import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import type { HostCandidate } from '@sesame/shared';
import { useTranslation } from '../../../lib/i18n';
import { kioskApi } from '../api';

export interface ChosenHost {
  id: string;
  name: string;
}

export function HostPicker({
  value,
  onChange,
  error,
}: {
  value: ChosenHost | null;
  onChange: (host: ChosenHost | null) => void;
  error?: string;
}) {
  const { t } = useTranslation('kiosk');
  const [search, setSearch] = useState('');
  const [answer, setAnswer] = useState<{ search: string; hosts: HostCandidate[] } | null>(null);
  const latest = useRef(0);
  const text = search.trim();
  const enough = !value && text.replace(/[^\p{L}]/gu, '').length >= 2;
  const found = enough && answer?.search === text ? answer.hosts : null;

  useEffect(() => {
    if (!enough) return;
    const id = ++latest.current;
    const timer = window.setTimeout(() => {
      kioskApi.hosts(text).then(
        (hosts) => {
          if (id === latest.current) setAnswer({ search: text, hosts: hosts.slice(0, 6) });
        },
        () => undefined,
      );
    }, 300);
    return () => window.clearTimeout(timer);
  }, [text, enough]);

  if (value) {
    return (
      <Stack gap="xs">
        <Text fw={700} size="lg">
          {t('walkIn.host')}
        </Text>
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Text size="lg">{t('walkIn.hostChosen', { name: value.name })}</Text>
          <Button
            size="lg"
            variant="default"
            onClick={() => {
              setSearch('');
              onChange(null);
            }}
          >
            {t('walkIn.hostChange')}
          </Button>
        </Group>
      </Stack>
    );
  }
  return (
    <Stack gap="sm">
      <TextInput
        size="lg"
        label={t('walkIn.host')}
        description={t('walkIn.hostHelp')}
        value={search}
        error={error}
        autoComplete="off"
        maxLength={100}
        onChange={(event) => setSearch(event.currentTarget.value)}
      />
      <div role="status" aria-live="polite">
        {found && found.length === 0 && <Text>{t('walkIn.hostNone')}</Text>}
      </div>
      {found && found.length > 0 && (
        <Stack gap="xs" role="group" aria-label={t('walkIn.hostResults')}>
          {found.map((host) => (
            <Button
              key={host.id}
              size="lg"
              variant="default"
              justify="flex-start"
              data-testid="kiosk-host"
              onClick={() => onChange({ id: host.id, name: host.name })}
            >
              {host.name}
            </Button>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
