/** 'Liste des demandes' (`/{domain}/list-qrcode`). */
import { Alert, Container } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { mayPerform } from '@sesame/shared';
import { PageTitle } from '../../../components/PageTitle';
import { useAuth } from '../../../lib/auth';
import { RequestTable } from '../components/RequestTable';

export default function RequestListPage() {
  const { domain = '' } = useParams();
  const { t } = useTranslation('requests');
  const { user, role } = useAuth();
  return (
    <Container size="xl" py="lg">
      <PageTitle>{t('title')}</PageTitle>
      {user && role && mayPerform(role, 'requests.list') ? (
        <RequestTable domain={domain} role={role} userCompany={user.company} />
      ) : (
        <Alert color="red" role="alert">
          {t('forbidden')}
        </Alert>
      )}
    </Container>
  );
}
