/**
 * "Canaux" (issue 34): the Slack and Teams channels the company's chat messages go to, each
 * for one site or all of them. A channel's URL is a secret (whoever has it posts there): it
 * is typed once and only its host is shown back. Removing one asks first.
 */
import { Badge, Button, Grid, NativeSelect, Stack, Text, Title } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import {
  CHAT_CHANNEL_KINDS,
  CHAT_LIMITS,
  chatChannelInputSchema,
  type ChatChannel,
  type ChatChannelInput,
  type ChatChannelKind,
  type Site,
} from '@sesame/shared';
import { useState } from 'react';
import { FeedbackAlert, type Feedback } from '../../../components/FeedbackAlert';
import { SubmitSummary } from '../../../components/FormFrame';
import { PanelHeading, PanelSection, col } from '../../../components/InlineForm';
import { ResponsiveRows } from '../../../components/ResponsiveRows';
import { RowActions, RowButton, useRecordAction } from '../../../components/RowActions';
import { nameColumn, type Column } from '../../../components/RowsTable';
import { useTranslation } from '../../../lib/i18n';
import { saveWithFeedback, toastDone } from '../../../lib/use-inline-edit';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { addChatChannel, chatKeys, removeChatChannel } from '../api/chat';
import { serverFieldErrors, sortChannels } from '../lib/integrations';
import { NameInput } from './NameInput';
import { ReceiverUrlInput } from './ReceiverUrlInput';

interface ChannelValues {
  kind: ChatChannelKind;
  name: string;
  url: string;
  /** '' for every site. */
  site_id: string;
}

const EMPTY: ChannelValues = { kind: 'slack_webhook', name: '', url: '', site_id: '' };

export function ChatChannels(props: { company: string; channels: ChatChannel[]; sites: Site[] }) {
  const { company } = props;
  const { t } = useTranslation('integrations');
  const queryClient = useQueryClient();
  const [feedback, setFeedback] = useState<Feedback | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: chatKeys.settings(company) });
  const siteName = (siteId: string | null) =>
    siteId === null
      ? t('chat.channels.allSites')
      : (props.sites.find((site) => site.id === siteId)?.name ?? t('chat.channels.otherSite'));

  const { form, submit, summary, busy } = useSchemaForm(chatChannelInputSchema, {
    ns: 'integrations',
    keys: { errors: 'errors', fields: 'chat.fields' },
    initialValues: EMPTY,
    toInput: (values): ChatChannelInput => ({
      kind: values.kind,
      name: values.name,
      url: values.url,
      site_id: values.site_id || null,
    }),
    onSubmit: (input) =>
      saveWithFeedback(
        async () => {
          const answer = await addChatChannel(company, input);
          toastDone(answer, t('chat.channels.added'));
          form.reset();
          void refresh();
        },
        { t, setFeedback, fieldErrors: serverFieldErrors },
      ),
  });

  const remove = useRecordAction({
    run: (channel: ChatChannel) => removeChatChannel(company, channel.id),
    done: t('chat.channels.removed'),
    failed: t('chat.channels.removeFailed'),
    refresh,
    confirm: (channel) => ({
      title: t('chat.channels.removeTitle', { name: channel.name }),
      body: t('chat.channels.removeBody', { name: channel.name }),
      confirm: t('chat.channels.removeYes'),
      cancel: t('cancel'),
    }),
  });

  const columns: Column<ChatChannel>[] = [
    nameColumn(t('chat.channels.columns.name'), (channel) => channel.name, 'chat-channel-name'),
    {
      key: 'kind',
      header: t('chat.channels.columns.kind'),
      render: (channel) => (
        <Badge
          variant="light"
          color={channel.kind === 'slack_webhook' ? 'grape' : 'indigo'}
          tt="none"
        >
          {t(`chat.channels.kinds.${channel.kind}`)}
        </Badge>
      ),
    },
    {
      key: 'host',
      header: t('chat.channels.columns.host'),
      render: (channel) => (
        <Text span size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
          {channel.url_host}
        </Text>
      ),
    },
    {
      key: 'site',
      header: t('chat.channels.columns.site'),
      render: (channel) => siteName(channel.site_id),
    },
    {
      key: 'actions',
      header: t('chat.channels.columns.actions'),
      card: 'actions',
      render: (channel) => (
        <RowActions>
          <RowButton
            label={t('chat.channels.remove')}
            ariaLabel={t('chat.channels.removeOf', { name: channel.name })}
            color="red"
            onClick={() => remove.ask(channel)}
            loading={remove.busy(channel.id)}
          />
        </RowActions>
      ),
    },
  ];

  return (
    <PanelSection titleId="chat-channels-title" data-testid="chat-channels">
      <Stack gap="md">
        <PanelHeading
          titleId="chat-channels-title"
          title={t('chat.channels.title')}
          intro={t('chat.channels.intro')}
        />
        {props.channels.length === 0 ? (
          <Text c="dimmed" data-testid="empty">
            {t('chat.channels.empty')}
          </Text>
        ) : (
          <ResponsiveRows
            columns={columns}
            rows={sortChannels(props.channels)}
            rowKey={(channel) => channel.id}
            offset={0}
            label={t('chat.channels.title')}
            minWidth={640}
          />
        )}
        <form onSubmit={submit} noValidate aria-labelledby="chat-channel-form-title">
          <Stack gap="sm">
            <Title order={3} size="h5" id="chat-channel-form-title">
              {t('chat.channels.addTitle')}
            </Title>
            <SubmitSummary summary={summary} feedback={feedback} />
            <Grid gap="md">
              {col(
                <NativeSelect
                  label={t('chat.fields.kind')}
                  data={CHAT_CHANNEL_KINDS.map((kind) => ({
                    value: kind,
                    label: t(`chat.channels.kinds.${kind}`),
                  }))}
                  {...form.getInputProps('kind')}
                  name="kind"
                />,
              )}
              {col(
                <NameInput
                  label={t('chat.fields.name')}
                  placeholder={t('chat.channels.nameHint')}
                  maxLength={CHAT_LIMITS.channelNameMax}
                  input={form.getInputProps('name')}
                />,
              )}
              {col(
                <ReceiverUrlInput
                  label={t('chat.fields.url')}
                  description={t('chat.channels.urlHint')}
                  input={form.getInputProps('url')}
                />,
              )}
              {col(
                <NativeSelect
                  label={t('chat.fields.site_id')}
                  data={[
                    { value: '', label: t('chat.channels.allSites') },
                    ...props.sites.map((site) => ({ value: site.id, label: site.name })),
                  ]}
                  {...form.getInputProps('site_id')}
                  name="site_id"
                />,
              )}
            </Grid>
            <FeedbackAlert feedback={feedback} testId="chat-channel-feedback" />
            <Button type="submit" loading={busy} disabled={busy} w="fit-content">
              {t('chat.channels.add')}
            </Button>
          </Stack>
        </form>
      </Stack>
    </PanelSection>
  );
}
