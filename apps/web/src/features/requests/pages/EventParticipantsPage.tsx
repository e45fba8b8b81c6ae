/** 'Liste Participants' (`/{domain}/list-qrcode-events/{slug}`): the request list in event mode. */
import { Alert, Container } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { mayPerform } from '@sesame/shared';
import { PageTitle } from '../../../components/PageTitle';
import { useAuth } from '../../../lib/auth';
import { RequestTable } from '../components/RequestTable';

export default function EventParticipantsPage() {
  const { domain = '', slug = '' } = useParams();
  const { t } = useTranslation('requests');
  const { user, role } = useAuth();
  return (
    <Container size="xl" py="lg">
      <PageTitle>{t('eventTitle')}</PageTitle>
      {user && role && mayPerform(role, 'events.list') ? (
        <RequestTable domain={domain} role={role} userCompany={user.company} event={slug} />
      ) : (
        <Alert color="red" role="alert">
          {t('forbidden')}
        </Alert>
      )}
    </Container>
  );
}
