/**
 * `/{domain}/chat` (issue 34): 'Messagerie' — where the hosts' chat messages go: the Slack
 * bot's token (direct messages, write-only) and the Slack or Teams channels, each for one
 * site or all. The sites are the company's, as the sites screen lists them.
 */
import { Container, Stack } from '@mantine/core';
import { useParams } from 'react-router';
import { ListHeader } from '../../../components/ListHeader';
import { QueryState } from '../../../components/QueryState';
import { serverMessageOf } from '../../../lib/api-client';
import { useTranslation } from '../../../lib/i18n';
import { useCompanySites } from '../../../lib/site';
import { useChatSettings } from '../api/chat';
import { ChatChannels } from '../components/ChatChannels';
import { SlackTokenForm } from '../components/SlackTokenForm';

export default function ChatPage() {
  const { t } = useTranslation('integrations');
  const { domain = '' } = useParams();
  const settings = useChatSettings(domain);
  const sites = useCompanySites(domain);

  return (
    <Container size="lg">
      <ListHeader title={t('chat.title')} intro={t('chat.intro')} />
      <QueryState
        query={settings}
        errorText={(error) => serverMessageOf(error) ?? t('chat.loadFailed')}
      >
        {(view) => (
          <Stack gap="lg">
            <SlackTokenForm company={domain} hasToken={view.has_slack_bot_token} />
            <ChatChannels company={domain} channels={view.channels} sites={sites.data ?? []} />
          </Stack>
        )}
      </QueryState>
    </Container>
  );
}
