/**
 * Finding one's own visit by name (issue 29): at least 2 letters of the last name, searched
 * ~300 ms after the last key, among the kiosk's site's visits of today. Each match shows the
 * first name, the last name's initial, the host and the time — never another visitor's
 * details. Choosing one, then confirming, checks the visitor in (or out, when leaving).
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Button, Loader, Stack, Text, TextInput } from '@mantine/core';
import type { KioskCheckAnswer, KioskExpected, SignatureInput } from '@sesame/shared';
import { useTranslation } from '../../../lib/i18n';
import { LazySignDocuments } from '../../../components/signing/LazySignDocuments';
import { kioskApi, KioskApiError, statusOf } from '../api';
import { newIdempotencyKey, type KioskCheckKind } from '../lib/offline-queue';

const SEARCH_DELAY_MS = 300;
const letters = (text: string) => text.replace(/[^\p{L}]/gu, '').length;

export function NameSearch({
  kind,
  online,
  onChecked,
}: {
  kind: KioskCheckKind;
  online: boolean;
  onChecked: (check: KioskCheckAnswer) => void;
}) {
  const { t } = useTranslation('kiosk');
  const [name, setName] = useState('');
  /** The last answer, with the search it answers: shown while it is the search typed. */
  const [answer, setAnswer] = useState<{
    search: string;
    matches: KioskExpected[] | null;
    error?: string;
  } | null>(null);
  const [chosen, setChosen] = useState<string | null>(null);
  /** Issue 31: the chosen visit's documents still to sign, shown before its check-in. */
  const [signing, setSigning] = useState<KioskExpected | null>(null);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const latest = useRef(0);
  // One key per chosen visit: tapping "Confirmer" twice sends the same check once.
  const key = useMemo(() => (chosen ? newIdempotencyKey() : ''), [chosen]);
  const search = name.trim();
  const enough = letters(search) >= 2;
  const shown = enough && answer?.search === search ? answer : null;
  const searching = enough && !shown;
  const matches = shown?.matches ?? null;

  useEffect(() => {
    if (!enough) return;
    const id = ++latest.current;
    const timer = window.setTimeout(() => {
      kioskApi.expected(search).then(
        (found) => {
          if (id === latest.current) setAnswer({ search, matches: found });
        },
        (failure: unknown) => {
          if (id !== latest.current) return;
          setAnswer({
            search,
            matches: null,
            error:
              statusOf(failure) === 0
                ? t('needsNetwork')
                : (failure instanceof KioskApiError && failure.serverMessage) || t('failed'),
          });
        },
      );
    }, SEARCH_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [search, enough, t]);

  const confirm = async (signatures?: SignatureInput[]) => {
    if (!chosen) return;
    const match = matches?.find((m) => m.request_id === chosen);
    if (kind === 'check-in' && !signatures && match?.to_sign.length) {
      setSigning(match);
      return;
    }
    setSending(true);
    setError(null);
    try {
      onChecked(await kioskApi.check(kind, { request_id: chosen }, key, signatures));
    } catch (failure) {
      setSending(false);
      setError(
        statusOf(failure) === 0
          ? t('needsNetwork')
          : (failure instanceof KioskApiError && failure.serverMessage) || t('failed'),
      );
    }
  };

  if (signing) {
    return (
      <Stack gap="lg">
        <LazySignDocuments
          documents={signing.to_sign}
          size="xl"
          loadingLabel={t('loading')}
          onSigned={(signatures) => {
            if (signatures) void confirm(signatures);
          }}
        />
        {sending && <Loader aria-label={t('loading')} />}
        {error && (
          <Alert color="red" variant="light" role="alert">
            {error}
          </Alert>
        )}
      </Stack>
    );
  }

  return (
    <Stack gap="lg">
      {!online && (
        <Alert color="orange" variant="light">
          {t('needsNetwork')}
        </Alert>
      )}
      <TextInput
        size="xl"
        label={t('expected.name')}
        description={t('expected.nameHelp')}
        value={name}
        autoComplete="off"
        autoCapitalize="words"
        spellCheck={false}
        maxLength={100}
        onChange={(event) => {
          setName(event.currentTarget.value);
          setChosen(null);
        }}
        rightSection={searching ? <Loader size="sm" aria-label={t('expected.searching')} /> : null}
      />
      <div role="status" aria-live="polite">
        {matches && matches.length === 0 && <Text size="lg">{t('expected.none')}</Text>}
      </div>
      {matches && matches.length > 0 && (
        <Stack gap="sm" role="group" aria-label={t('expected.results')}>
          <Text fw={700} size="lg">
            {t('expected.results')}
          </Text>
          {matches.map((match) => {
            const selected = chosen === match.request_id;
            return (
              <Button
                key={match.request_id}
                data-testid="kiosk-match"
                size="xl"
                h="auto"
                mih={64}
                py="sm"
                justify="flex-start"
                variant={selected ? 'filled' : 'default'}
                aria-pressed={selected}
                onClick={() => setChosen(match.request_id)}
                styles={{ label: { whiteSpace: 'normal', textAlign: 'start' } }}
              >
                <span>
                  <strong>
                    {match.firstname} {match.initial}
                  </strong>
                  {match.host && <> — {t('expected.with', { host: match.host })}</>}
                  {match.time && <> · {t('expected.at', { time: match.time })}</>}
                </span>
              </Button>
            );
          })}
        </Stack>
      )}
      {(error ?? shown?.error) && (
        <Alert color="red" variant="light" role="alert">
          {error ?? shown?.error}
        </Alert>
      )}
      {chosen && (
        <Button size="xl" color="teal" loading={sending} onClick={() => void confirm()}>
          {kind === 'check-in' ? t('expected.confirm') : t('leaving.confirm')}
        </Button>
      )}
    </Stack>
  );
}
