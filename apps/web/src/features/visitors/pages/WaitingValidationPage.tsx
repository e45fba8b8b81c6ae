/** WaitingValidation (`/{domain}/waiting-validation/{id}`). */
import { Container } from '@mantine/core';
import { useTranslation } from '../../../lib/i18n';
import { useParams } from 'react-router';
import { PageTitle } from '../../../components/PageTitle';
import { WaitingPanel } from '../components/WaitingPanel';

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
