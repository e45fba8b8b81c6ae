/** 'Créer une Carte Membre' (spec §2 Member card creation): after 200/201 the recto and verso. */
import { useState } from 'react';
import { Alert, Button, Container, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { mayPerform, type QrUserCard } from '@sesame/shared';
import { PageTitle } from '../../../components/PageTitle';
import { useAuth } from '../../../lib/auth';
import { CardForm } from '../components/CardForm';
import { MemberBadge } from '../components/MemberCard';

export default function CreateMemberPage() {
  const { t } = useTranslation('qrUsers');
  const { domain = '' } = useParams();
  const { role } = useAuth();
  const [card, setCard] = useState<QrUserCard | null>(null);
  const [formKey, setFormKey] = useState(0);

  return (
    <Container size="md" py="lg">
      <PageTitle>{t('createMember.title')}</PageTitle>
      {role && !mayPerform(role, 'members.create') ? (
        <Alert color="red" role="alert">
          {t('createMember.status.403')}
        </Alert>
      ) : card ? (
        <Stack align="center" gap="lg">
          <MemberBadge data={card} domain={domain} />
          <Button
            variant="light"
            onClick={() => {
              setCard(null);
              setFormKey((k) => k + 1);
            }}
          >
            {t('createMember.another')}
          </Button>
        </Stack>
      ) : (
        <CardForm key={formKey} mode="member" domain={domain} onCreated={setCard} />
      )}
    </Container>
  );
}
