/**
 * The meeting QR card (`/company/{domain}/meeting-request-qr/{uidn}`): the code is
 * the visitor's secret, so the card opens with it. The card is the company's of the
 * URL or none: a code of another company (or no code) is 'Page introuvable', as a
 * record of another company is everywhere. Capture downloads meeting-{company}-{code}.png.
 */
import { useRef } from 'react';
import { Button, Container, Group, Stack } from '@mantine/core';
import { useTranslation, withFrenchWords } from '../../../lib/i18n';
import { Link, useLocation, useParams } from 'react-router';
import { mayPerform } from '@sesame/shared';
import { MailStatus } from '../../../components/MailStatus';
import { NotFoundPage } from '../../../components/NotFoundPage';
import { PageTitle } from '../../../components/PageTitle';
import { PersonRights } from '../../../components/PersonRights';
import { QueryState } from '../../../components/QueryState';
import { ApiError } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { useVisitorCard } from '../api/visitors';
import { CaptureButton, meetingCaptureName } from '../components/CaptureButton';
import { VisitorCardView } from '../components/VisitorCardView';
import { statusText } from '../lib/outcome';
import visitorsWords from '../../../locales/fr/visitors.json';
import hostLoopWords from '../../../locales/fr/hostLoop.json';

// This screen's French words come with its code (lib/i18n).
withFrenchWords({ visitors: visitorsWords, hostLoop: hostLoopWords });

export default function MeetingQrCardPage() {
  const { domain = '', uidn = '' } = useParams();
  const { t } = useTranslation('visitors');
  const card = useVisitorCard(uidn);
  // Staff see the code mail's state under the card (issue 12 §5); the visitor does not.
  const { role } = useAuth();
  const ref = useRef<HTMLDivElement>(null);
  // Opened by a scan without a session (issue 15): the visitor sees their card, and the
  // front desk may sign in, which goes back to the scan to record the arrival.
  const scanFrom = (useLocation().state as { scanFrom?: string } | null)?.scanFrom;
  const { t: tLoop } = useTranslation('hostLoop');

  const unknown = card.error instanceof ApiError && card.error.status === 404;
  const otherCompany = !!card.data && card.data.company.slug.toLowerCase() !== domain.toLowerCase();
  if (unknown || otherCompany) return <NotFoundPage />;

  return (
    <Container size="sm" py={{ base: 'md', sm: 'xl' }}>
      <PageTitle ta="center">{t('card.pageTitle')}</PageTitle>
      <QueryState
        query={card}
        errorText={(error) =>
          error instanceof ApiError && error.status
            ? statusText(t, error.status)
            : t('outcome.unexpected')
        }
      >
        {(data) => (
          <Stack align="center">
            <VisitorCardView ref={ref} card={data} />
            {role && (
              <MailStatus
                uidn={data.uidn}
                canResend={
                  mayPerform(role, 'requests.validate') || mayPerform(role, 'events.create')
                }
              />
            )}
            <Group>
              <CaptureButton
                target={ref}
                filename={meetingCaptureName(data.company.slug, data.uidn)}
              />
            </Group>
            {!role && scanFrom && (
              <Button
                component={Link}
                to="/sign-in"
                state={{ from: scanFrom }}
                variant="subtle"
                size="xs"
                data-testid="scan-staff-login"
              >
                {tLoop('scan.staffLogin')}
              </Button>
            )}
            <PersonRights
              kind="visitor"
              personKey={data.uidn}
              listPath={`/${data.company.slug}/list-qrcode`}
            />
          </Stack>
        )}
      </QueryState>
    </Container>
  );
}
