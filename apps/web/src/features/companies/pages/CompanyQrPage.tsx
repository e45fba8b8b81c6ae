/**
 * The company QR page (spec §2): the company's logo, name, slug, link and the QR of
 * its request-meeting page. Public, like the event poster: it is printed and shown at
 * the front desk; staff also get a Menu button.
 */
import {
  Anchor,
  Button,
  Code,
  Container,
  Group,
  Image,
  Paper,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useTranslation, withFrenchWords } from '../../../lib/i18n';
import { Link, useParams } from 'react-router';
import { IMAGE_SIZES } from '@sesame/shared';
import { CopyLinkButton } from '../../../components/CopyLinkButton';
import { QueryState } from '../../../components/QueryState';
import { ApiError } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { useSettings } from '../../../lib/company';
import { toCompanyPoster, useCompanyDetails } from '../api/companies';
import '@mantine/core/styles/Code.css';
import companiesWords from '../../../locales/fr/companies.json';

// This screen's French words come with its code (lib/i18n).
withFrenchWords({ companies: companiesWords });

/** Big enough for a phone to read it on paper. */
const POSTER_QR_PX = 260;

export default function CompanyQrPage() {
  const { t } = useTranslation('companies');
  const { domain = '', slug = '' } = useParams();
  const { isAuthenticated } = useAuth();
  const query = useCompanyDetails(slug);
  const settings = useSettings();

  if (!query.data || !settings.data) {
    return (
      <Container size="sm" py="xl">
        <QueryState
          query={{
            isPending: query.isPending || settings.isPending,
            isError: query.isError || settings.isError,
            error: query.error ?? settings.error,
            data: undefined,
          }}
          errorText={(error) =>
            error instanceof ApiError && error.status === 404
              ? t('status.404')
              : t('status.loadFailed')
          }
        >
          {() => null}
        </QueryState>
      </Container>
    );
  }

  const company = toCompanyPoster(query.data, settings.data.public_url);
  return (
    <Container size="sm" py="lg">
      <Paper withBorder radius="md" p="xl" bg="white" data-testid="company-qr">
        <Stack align="center" gap="sm" ta="center">
          <Text size="sm" fw={600} c="dimmed" tt="uppercase">
            {t('qr.title')}
          </Text>
          {company.logo_url && (
            <Image
              src={company.logo_url}
              alt={t('qr.logoAlt', { name: company.name })}
              h={IMAGE_SIZES.medium}
              w="auto"
              maw={240}
              fit="contain"
            />
          )}
          <Title order={1} size="h2">
            {company.name}
          </Title>
          <Group gap={6} justify="center">
            <Text size="sm" c="dimmed">
              {t('qr.slug')}
            </Text>
            <Code>{company.slug}</Code>
          </Group>
          <Image
            src={company.qrcode_url}
            alt={t('qr.qrAlt', { name: company.name })}
            w={POSTER_QR_PX}
            h={POSTER_QR_PX}
            fit="contain"
            data-testid="company-qr-image"
          />
          <Text size="sm">{t('qr.scan')}</Text>
          <Stack gap={4} align="center">
            <Text size="sm" c="dimmed">
              {t('qr.link')}
            </Text>
            <Anchor href={company.link} size="sm" style={{ wordBreak: 'break-all' }}>
              {company.link}
            </Anchor>
          </Stack>
        </Stack>
      </Paper>
      <Group justify="center" mt="md">
        <CopyLinkButton link={company.link} />
        <Button
          component="a"
          href={company.qrcode_url}
          download={`qrcode-${company.slug}.png`}
          variant="light"
          size="xs"
        >
          {t('qr.download')}
        </Button>
        {isAuthenticated && (
          <Button component={Link} to={`/${domain}/menu`} variant="default" size="xs">
            {t('qr.menu')}
          </Button>
        )}
      </Group>
    </Container>
  );
}
