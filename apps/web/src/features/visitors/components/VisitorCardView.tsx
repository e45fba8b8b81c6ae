import { forwardRef } from 'react';
import { Group, Image, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n';
import { countryName, type VisitorCard } from '@sesame/shared';
import { CompanyLogo } from '../../../components/CompanyLogo';
import { DetailRows } from '../../../components/DetailRows';
import { formatDayWords } from '../../../lib/format';
import { withZone } from '../../../lib/zone-label';

export function cardAddress(
  card: Pick<VisitorCard, 'address' | 'city' | 'state' | 'zipcode' | 'country'>,
  lang: string,
): string {
  return [
    card.address,
    card.city,
    [card.zipcode, card.state].filter(Boolean).join(' '),
    countryName(card.country, lang),
  ]
    .filter((part) => part && part.trim())
    .join(', ');
}

/** The displayed size of the QR on the card (large enough to scan from a phone screen). */
const CARD_QR_SIZE = 160;

/**
 * The visitor card (WaitingValidation after Valider, the meeting QR card):
 * time, date, name, title, place, address, organisation, QR image and code.
 * The ref is the node Capture turns into a PNG.
 */
export const VisitorCardView = forwardRef<HTMLDivElement, { card: VisitorCard }>(
  function VisitorCardView({ card }, ref) {
    const { t, i18n } = useTranslation('visitors');
    const title =
      card.title ?? (card.host ? t('card.meetingWith', { host: card.host }) : t('card.meeting'));
    const address = cardAddress(card, i18n.language);
    const rows: [string, string][] = [
      [t('card.date'), formatDayWords(card.date, i18n.language, { weekday: true })],
      // The site's time, its zone said when it is not the reader's (issue 28).
      [t('card.time'), withZone(card.time ?? '', card.site.timezone, i18n.language)],
      [t('card.name'), `${card.firstname} ${card.lastname}`],
      [t('card.organisation'), card.organisation_name],
      // The building, when the company has several (a single site bears the company's name).
      [
        t('card.location'),
        card.event || card.site.name === card.location
          ? card.location
          : `${card.location} — ${card.site.name}`,
      ],
      [t('card.address'), address],
    ];
    return (
      <Paper
        ref={ref}
        withBorder
        radius="md"
        p="lg"
        bg="white"
        maw={420}
        w="100%"
        data-testid="visitor-card"
      >
        <Stack gap="sm" align="stretch">
          <Group gap="sm" wrap="nowrap">
            <CompanyLogo company={card.company} h={50} />
            <Text fw={600}>{card.company.name}</Text>
          </Group>
          <Title order={2} size="h3">
            {title}
          </Title>
          <DetailRows rows={rows} />
          <Stack gap={4} align="center" mt="xs">
            <Image
              src={card.qr_code}
              alt={t('card.qrAlt', { code: card.uidn })}
              w={CARD_QR_SIZE}
              h={CARD_QR_SIZE}
            />
            <Text size="xs" c="dimmed">
              {t('card.code')}
            </Text>
            <Text ff="monospace" fw={700} size="xl" data-testid="visitor-code">
              {card.uidn}
            </Text>
          </Stack>
        </Stack>
      </Paper>
    );
  },
);
