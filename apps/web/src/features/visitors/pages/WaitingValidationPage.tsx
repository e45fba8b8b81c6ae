/** WaitingValidation (`/{domain}/waiting-validation/{id}`). */
import { Container } from '@mantine/core';
import { useTranslation, withFrenchWords } from '../../../lib/i18n';
import { useParams } from 'react-router';
import { PageTitle } from '../../../components/PageTitle';
import { WaitingPanel } from '../components/WaitingPanel';
import visitorsWords from '../../../locales/fr/visitors.json';

// This screen's French words come with its code (lib/i18n).
withFrenchWords({ visitors: visitorsWords });

export default function WaitingValidationPage() {
  const { domain = '', id = '' } = useParams();
  const { t } = useTranslation('visitors');
  return (
    <Container size="sm" py={{ base: 'md', sm: 'xl' }}>
      <PageTitle ta="center">{t('waiting.title')}</PageTitle>
      <WaitingPanel domain={domain} id={id} />
    </Container>
  );
}
