/**
 * `/api/company/{id}/chat` (issue 34): where the hosts' chat messages go — the Slack bot
 * token (write-only: never answered back) and the channels (Slack or Teams webhooks, whose
 * URL is a secret too: only its host comes back).
 */
import { useQuery } from '@tanstack/react-query';
import type { ChatChannel, ChatChannelInput, ChatSettings } from '@sesame/shared';
import { api } from '../../../lib/api-client';
import { companyPath, recordPath, type Said } from './company-path';

export const chatKeys = {
  settings: (company: string) => ['chat', company.toLowerCase()] as const,
};

export function useChatSettings(company: string) {
  return useQuery({
    queryKey: chatKeys.settings(company),
    queryFn: () =>
      api.get<{ data: ChatSettings }>(`${companyPath(company)}/chat`).then((r) => r.data),
    enabled: !!company,
  });
}

/** A new token, or null to remove the stored one (absent: kept). */
export const saveSlackToken = (company: string, slackBotToken: string | null) =>
  api.put<Said & { data?: ChatSettings }>(`${companyPath(company)}/chat`, {
    slack_bot_token: slackBotToken,
  });

export const addChatChannel = (company: string, body: ChatChannelInput) =>
  api.post<Said & { data: ChatChannel }>(`${companyPath(company)}/chat/channels`, body);

export const removeChatChannel = (company: string, channelId: string) =>
  api.delete<Said | undefined>(recordPath(company, 'chat/channels', channelId));
