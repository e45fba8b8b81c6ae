/**
 * 'Créer un QRCode' and 'Créer une Carte Membre' (spec §2 QR code creation, Member
 * card creation; §4: the result view replaces the form on 200/201): one form, then
 * the permanent QR card or the member card's recto and verso.
 */
import { useState } from 'react';
import { Alert, Button, Container, Stack } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n';
import { useParams } from 'react-router';
import { mayPerform, type QrUserCard } from '@sesame/shared';
import { PageTitle } from '../../../components/PageTitle';
import { useAuth } from '../../../lib/auth';
import { CardForm } from '../components/CardForm';
import { MemberBadge } from '../components/MemberCard';
import { QrUserCardWithCapture } from '../components/QrUserCard';

const KINDS = {
  qr: { texts: 'createQr', action: 'qrUsers.create' },
  member: { texts: 'createMember', action: 'members.create' },
} as const;

export function CreateCardPage({ mode }: { mode: keyof typeof KINDS }) {
  const { t } = useTranslation('qrUsers');
  const { domain = '' } = useParams();
  const { role } = useAuth();
  const [card, setCard] = useState<QrUserCard | null>(null);
  const [formKey, setFormKey] = useState(0);
  const { texts, action } = KINDS[mode];

  return (
    <Container size="md" py="lg">
      <PageTitle>{t(`${texts}.title`)}</PageTitle>
      {role && !mayPerform(role, action) ? (
        <Alert color="red" role="alert">
          {t(`${texts}.status.403`)}
        </Alert>
      ) : card ? (
        <Stack align="center" gap="lg">
          {mode === 'member' ? (
            <MemberBadge data={card} domain={domain} />
          ) : (
            <QrUserCardWithCapture card={card} domain={domain} />
          )}
          <Button
            variant="light"
            onClick={() => {
              setCard(null);
              setFormKey((k) => k + 1);
            }}
          >
            {t(`${texts}.another`)}
          </Button>
        </Stack>
      ) : (
        <CardForm key={formKey} mode={mode} domain={domain} onCreated={setCard} />
      )}
    </Container>
  );
}
