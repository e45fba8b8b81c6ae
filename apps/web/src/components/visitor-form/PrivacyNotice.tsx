/**
 * The privacy notice of the visitor and event forms (issue 16): the company's text, or
 * the default one filled from its retention periods, and the box the visitor must tick
 * (the server refuses the form without it too).
 */
import { Alert, Checkbox, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation, withFrenchWords } from '../../lib/i18n';
import { api } from '../../lib/api-client';
import privacyWords from '../../locales/fr/privacy.json';

// This screen's French words come with its code (lib/i18n).
withFrenchWords({ privacy: privacyWords });

export function PrivacyNotice(props: {
  companySlug: string | undefined;
  checked: boolean;
  error: React.ReactNode;
  onChange: (checked: boolean) => void;
}) {
  const { t, i18n } = useTranslation('privacy');
  // The notice in the form's language (issue 27): the visitor accepts a text they can read.
  // French keeps the bare address, which the server preloads with the page.
  const english = i18n.language === 'en';
  const notice = useQuery({
    queryKey: ['privacy-notice', props.companySlug, english ? 'en' : 'fr'],
    queryFn: () =>
      api
        .get<{ notice: string }>(
          `/public/privacy-notice/${encodeURIComponent(props.companySlug!)}${english ? '?lang=en' : ''}`,
        )
        .then((answer) => answer.notice),
    enabled: !!props.companySlug,
    staleTime: 5 * 60_000,
  });
  return (
    <div>
      {notice.data && (
        <Alert variant="light" color="gray" title={t('notice.title')} mb="xs">
          <Text size="sm" data-testid="privacy-notice">
            {notice.data}
          </Text>
        </Alert>
      )}
      <Checkbox
        name="privacy_accepted"
        data-path="privacy_accepted"
        label={t('notice.accept')}
        checked={props.checked}
        onChange={(event) => props.onChange(event.currentTarget.checked)}
        error={props.error}
        required
      />
    </div>
  );
}
