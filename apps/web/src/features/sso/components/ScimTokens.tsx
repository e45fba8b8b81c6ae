/**
 * 'Jetons SCIM' (issue 33): the bearer tokens the company's identity provider uses to
 * create, change and remove its staff's accounts. A new token is shown once, in a dialog
 * with its copy button; a revoked one stays listed and opens nothing more.
 */
import { useState } from 'react';
import { Badge, Button, Group, Stack, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { SSO_LIMITS, type ScimToken } from '@sesame/shared';
import { FeedbackAlert, type Feedback } from '../../../components/FeedbackAlert';
import { PanelHeading, PanelSection } from '../../../components/InlineForm';
import { QueryRows } from '../../../components/QueryRows';
import { ShownOnce } from '../../../components/ShownOnce';
import { RowActions, RowButton, useRecordAction } from '../../../components/RowActions';
import { nameColumn, type Column } from '../../../components/RowsTable';
import { ApiError, serverMessageOf } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import { toastDone } from '../../../lib/use-inline-edit';
import {
  createScimToken,
  revokeScimToken,
  ssoKeys,
  useScimTokens,
  type ScimTokenCreated,
} from '../api/sso';
import { sortTokens } from '../lib/sso';

export function ScimTokens({ company }: { company: string }) {
  const { t, i18n } = useTranslation('sso');
  const queryClient = useQueryClient();
  const tokens = useScimTokens(company);
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | undefined>();
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const [created, setCreated] = useState<ScimTokenCreated | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ssoKeys.tokens(company) });
  const when = (iso: string | null) =>
    iso ? formatDateTime(iso, undefined, i18n.language) : t('tokens.never');

  const create = useMutation({
    mutationFn: (tokenName: string) => createScimToken(company, tokenName),
    onMutate: () => {
      setFeedback(null);
      setNameError(undefined);
    },
    onSuccess: (answer) => {
      toastDone(answer, t('tokens.created'));
      setName('');
      setCreated(answer.data);
    },
    onError: (error) => {
      const field = error instanceof ApiError ? error.errors?.name : undefined;
      if (field) {
        setNameError(field);
        return;
      }
      setFeedback({
        color: 'red',
        title: serverMessageOf(error) ?? t('tokens.createFailed'),
      });
    },
    onSettled: refresh,
  });

  const revoke = useRecordAction({
    run: (token: ScimToken) => revokeScimToken(company, token.id),
    done: t('tokens.revoked'),
    failed: t('tokens.revokeFailed'),
    refresh,
    confirm: (token) => ({
      title: t('tokens.confirm.title', { name: token.name }),
      body: t('tokens.confirm.body', { name: token.name }),
      confirm: t('tokens.confirm.yes'),
      cancel: t('tokens.confirm.no'),
    }),
  });

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (!trimmed) {
      setNameError(t('errors.tokenNameRequired'));
      document.querySelector<HTMLElement>('[data-path="scim-token-name"]')?.focus();
      return;
    }
    create.mutate(trimmed);
  };

  const columns: Column<ScimToken>[] = [
    nameColumn(t('tokens.columns.name'), (token) => token.name, 'scim-token-name'),
    {
      key: 'created',
      header: t('tokens.columns.created'),
      render: (token) => when(token.created_at),
    },
    {
      key: 'lastUsed',
      header: t('tokens.columns.lastUsed'),
      render: (token) => when(token.last_used_at),
    },
    {
      key: 'state',
      header: t('tokens.columns.state'),
      render: (token) =>
        token.revoked_at ? (
          <Badge color="red" variant="light" data-state="revoked">
            {t('tokens.revokedOn', { date: when(token.revoked_at) })}
          </Badge>
        ) : (
          <Badge color="teal" variant="light" data-state="active">
            {t('tokens.active')}
          </Badge>
        ),
    },
    {
      key: 'actions',
      header: t('tokens.columns.actions'),
      card: 'actions',
      render: (token) =>
        token.revoked_at ? null : (
          <RowActions>
            <RowButton
              label={t('tokens.revoke')}
              ariaLabel={t('tokens.revokeOf', { name: token.name })}
              color="red"
              onClick={() => revoke.ask(token)}
              loading={revoke.busy(token.id)}
            />
          </RowActions>
        ),
    },
  ];

  return (
    <PanelSection titleId="scim-tokens-title" data-testid="scim-tokens">
      <Stack gap="md">
        <PanelHeading
          titleId="scim-tokens-title"
          title={t('tokens.title')}
          intro={t('tokens.intro')}
        />
        <form onSubmit={submit} noValidate aria-label={t('tokens.create')}>
          <Group align="flex-end" gap="xs">
            <TextInput
              label={t('tokens.name')}
              placeholder={t('tokens.nameHint')}
              value={name}
              onChange={(event) => {
                setName(event.currentTarget.value);
                setNameError(undefined);
              }}
              error={nameError}
              maxLength={SSO_LIMITS.scimTokenNameMax}
              autoComplete="off"
              data-path="scim-token-name"
              name="name"
              style={{ flex: 1, minWidth: 200 }}
            />
            <Button type="submit" loading={create.isPending}>
              {t('tokens.create')}
            </Button>
          </Group>
        </form>
        <FeedbackAlert feedback={feedback} testId="scim-token-feedback" />
        <QueryRows
          query={tokens}
          loadFailed={t('tokens.loadFailed')}
          empty={t('tokens.empty')}
          order={sortTokens}
          columns={columns}
          rowKey={(token) => token.id}
          label={t('tokens.title')}
          minWidth={720}
        />
      </Stack>
      <ShownOnce
        secret={created?.token ?? null}
        title={t('tokens.shownTitle', { name: created?.name ?? '' })}
        warning={t('tokens.shownWarning')}
        label={t('tokens.token')}
        done={t('tokens.shownDone')}
        onClose={() => setCreated(null)}
        testId="scim-token-created"
        valueTestId="scim-token-value"
      />
    </PanelSection>
  );
}
