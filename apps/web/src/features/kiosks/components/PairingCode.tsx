/**
 * A kiosk's pairing code, shown once (issue 29): the 6 digits big enough to read across a
 * desk, how long they last, and where the tablet types them.
 */
import { Button, Group, Stack, Text, Title } from '@mantine/core';
import type { Kiosk, KioskPairing } from '@sesame/shared';
import { PanelSection } from '../../../components/InlineForm';
import { formatTime } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import { browserZone } from '../../../lib/zone-label';
import { PAIRING_MINUTES, kioskAppUrl, spacedCode } from '../lib/kiosks';

export function PairingCode(props: {
  kiosk: Kiosk;
  pairing: KioskPairing;
  /** The product's public address (the settings'), else this page's origin. */
  publicUrl: string;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation('kiosks');
  const { kiosk, pairing } = props;
  const titleId = `kiosk-pairing-${kiosk.id}`;
  const until = formatTime(pairing.expires_at, browserZone(), i18n.language);
  return (
    <PanelSection titleId={titleId} data-testid="kiosk-pairing">
      <Stack gap="sm" align="center" ta="center">
        <Title order={2} size="h4" id={titleId} tabIndex={-1}>
          {t('pairing.title', { name: kiosk.name })}
        </Title>
        <Text
          component="output"
          fz={{ base: 44, sm: 64 }}
          fw={800}
          lh={1.1}
          ff="monospace"
          style={{ letterSpacing: '0.08em' }}
          aria-label={t('pairing.codeLabel', { code: pairing.code.split('').join(' ') })}
          data-testid="kiosk-pairing-code"
          data-code={pairing.code}
        >
          {spacedCode(pairing.code)}
        </Text>
        <Text fw={600}>{t('pairing.validity', { minutes: PAIRING_MINUTES, time: until })}</Text>
        <Text>{t('pairing.instruction', { url: kioskAppUrl(props.publicUrl) })}</Text>
        <Text size="sm" c="dimmed">
          {t('pairing.once')}
        </Text>
        <Group>
          <Button variant="default" onClick={props.onClose}>
            {t('pairing.close')}
          </Button>
        </Group>
      </Stack>
    </PanelSection>
  );
}
