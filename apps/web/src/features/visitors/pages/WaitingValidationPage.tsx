/**
 * WaitingValidation (`/{domain}/waiting-validation/{id}`): the staff's page to validate a
 * request (request list → Valider), and the visitor's 'Suivre ma demande' link. It speaks to
 * whoever reads it (issue 27): staff of the request's company get its row from the server.
 */
import { Container } from '@mantine/core';
import { useTranslation, withFrenchWords } from '../../../lib/i18n';
import { useParams } from 'react-router';
import { PageTitle } from '../../../components/PageTitle';
import { WaitingPanel } from '../components/WaitingPanel';
import { useRequestStatus } from '../api/visitors';
import visitorsWords from '../../../locales/fr/visitors.json';

// This screen's French words come with its code (lib/i18n).
withFrenchWords({ visitors: visitorsWords });

export default function WaitingValidationPage() {
  const { domain = '', id = '' } = useParams();
  const { t } = useTranslation('visitors');
  const staff = !!useRequestStatus(id).data?.request;
  return (
    <Container size="sm" py={{ base: 'md', sm: 'xl' }}>
      <PageTitle ta="center">{t(staff ? 'waiting.staffTitle' : 'waiting.title')}</PageTitle>
      <WaitingPanel domain={domain} id={id} />
    </Container>
  );
}
