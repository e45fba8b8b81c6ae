/** 'Créer un QRCode' (spec §2 QR code creation, §4: the result view replaces the form on 200). */
import { useState } from 'react';
import { Alert, Button, Container, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { mayPerform, type QrUserCard } from '@sesame/shared';
import { PageTitle } from '../../../components/PageTitle';
import { useAuth } from '../../../lib/auth';
import { CardForm } from '../components/CardForm';
import { QrUserCardWithCapture } from '../components/QrUserCard';

export default function CreateQrPage() {
  const { t } = useTranslation('qrUsers');
  const { domain = '' } = useParams();
  const { role } = useAuth();
  const [card, setCard] = useState<QrUserCard | null>(null);
  const [formKey, setFormKey] = useState(0);

  return (
    <Container size="md" py="lg">
      <PageTitle>{t('createQr.title')}</PageTitle>
      {role && !mayPerform(role, 'qrUsers.create') ? (
        <Alert color="red" role="alert">
          {t('createQr.status.403')}
        </Alert>
      ) : card ? (
        <Stack align="center" gap="lg">
          <QrUserCardWithCapture card={card} domain={domain} />
          <Button
            variant="light"
            onClick={() => {
              setCard(null);
              setFormKey((k) => k + 1);
            }}
          >
            {t('createQr.another')}
          </Button>
        </Stack>
      ) : (
        <CardForm key={formKey} mode="qr" domain={domain} onCreated={setCard} />
      )}
    </Container>
  );
}
