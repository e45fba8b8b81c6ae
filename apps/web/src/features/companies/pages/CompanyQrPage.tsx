/**
 * The company QR page (spec §2): the company's logo, name, slug, link and the QR of
 * its request-meeting page. Public, like the event poster: it is printed and shown at
 * the front desk; staff also get a Menu button.
 *
 * Sites (issue 28): `?site=<id>` shows that site's poster — its name and address, the QR
 * of `/{slug}/request-meeting?site=<id>` (the form then asks no site). A company with
 * several active sites lists each site's poster under its own.
 */
import {
  Anchor,
  Button,
  Code,
  Container,
  Group,
  Image,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useTranslation, withFrenchWords } from '../../../lib/i18n';
import { Link, useParams, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { IMAGE_SIZES, type PublicSite } from '@sesame/shared';
import { CopyLinkButton } from '../../../components/CopyLinkButton';
import { QueryState } from '../../../components/QueryState';
import { ApiError, api } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { useSettings } from '../../../lib/company';
import { toCompanyPoster, useCompanyDetails, type CompanyPoster } from '../api/companies';
import '@mantine/core/styles/Code.css';
import companiesWords from '../../../locales/fr/companies.json';

// This screen's French words come with its code (lib/i18n).
withFrenchWords({ companies: companiesWords });

/** Big enough for a phone to read it on paper. */
const POSTER_QR_PX = 260;
/** A site's poster in the list under the company's. */
const SITE_QR_PX = 180;

/** The company's active sites (the public list the visitor form reads). */
function usePosterSites(slug: string) {
  return useQuery({
    queryKey: ['public-sites', slug.toLowerCase()],
    queryFn: () =>
      api
        .get<{ data: PublicSite[] }>(`/public/sites/${encodeURIComponent(slug)}`)
        .then((r) => r.data),
    enabled: !!slug,
    staleTime: 60_000,
    retry: false,
  });
}

/** A site's own link and QR: the company's, naming the site. */
function sitePoster(company: CompanyPoster, siteId: string) {
  const param = `site=${encodeURIComponent(siteId)}`;
  const join = (url: string) => `${url}${url.includes('?') ? '&' : '?'}${param}`;
  return { link: join(company.link), qrcode_url: join(company.qrcode_url) };
}

function siteAddress(site: PublicSite): string {
  return [site.address, site.city].filter(Boolean).join(', ');
}

export default function CompanyQrPage() {
  const { t } = useTranslation('companies');
  const { domain = '', slug = '' } = useParams();
  const { isAuthenticated } = useAuth();
  const query = useCompanyDetails(slug);
  const settings = useSettings();
  const [params] = useSearchParams();
  const siteId = params.get('site');
  const sites = usePosterSites(query.data?.slug ?? '');
  const siteList = sites.data ?? [];
  const site = siteId ? siteList.find((s) => s.id === siteId) : undefined;

  if (!query.data || !settings.data || (siteId && sites.isPending)) {
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
  if (siteId && !site) {
    return (
      <Container size="sm" py="xl">
        <Text role="alert" c="red.8" ta="center" data-testid="company-qr-site-missing">
          {t('qr.siteNotFound')}
        </Text>
      </Container>
    );
  }
  // The site's own poster, or the company's.
  const shown = site ? { ...company, ...sitePoster(company, site.id) } : company;
  const qrAlt = site
    ? t('qr.siteQrAlt', { name: company.name, site: site.name })
    : t('qr.qrAlt', { name: company.name });
  const others = !site && siteList.length > 1 ? siteList : [];
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
          {site && (
            <Stack gap={2} align="center" data-testid="company-qr-site">
              <Text fw={700} size="lg">
                {site.name}
              </Text>
              {siteAddress(site) && (
                <Text size="sm" c="dimmed">
                  {siteAddress(site)}
                </Text>
              )}
            </Stack>
          )}
          <Group gap={6} justify="center">
            <Text size="sm" c="dimmed">
              {t('qr.slug')}
            </Text>
            <Code>{company.slug}</Code>
          </Group>
          <Image
            src={shown.qrcode_url}
            alt={qrAlt}
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
            <Anchor href={shown.link} size="sm" style={{ wordBreak: 'break-all' }}>
              {shown.link}
            </Anchor>
          </Stack>
        </Stack>
      </Paper>
      <Group justify="center" mt="md">
        <CopyLinkButton link={shown.link} />
        <Button
          component="a"
          href={shown.qrcode_url}
          download={`qrcode-${company.slug}${site ? `-${site.id.slice(0, 8)}` : ''}.png`}
          variant="light"
          size="xs"
        >
          {t('qr.download')}
        </Button>
        {site && (
          <Button component={Link} to={{ search: '' }} variant="default" size="xs">
            {t('qr.allSites')}
          </Button>
        )}
        {isAuthenticated && (
          <Button component={Link} to={`/${domain}/menu`} variant="default" size="xs">
            {t('qr.menu')}
          </Button>
        )}
      </Group>
      {others.length > 0 && (
        <Stack gap="md" mt="xl" data-testid="company-qr-sites">
          <Title order={2} size="h3" ta="center">
            {t('qr.sitesTitle')}
          </Title>
          <Text size="sm" c="dimmed" ta="center">
            {t('qr.sitesIntro')}
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {others.map((each) => (
              <Paper
                key={each.id}
                withBorder
                radius="md"
                p="md"
                bg="white"
                data-testid="company-qr-site-card"
              >
                <Stack align="center" gap={6} ta="center">
                  <Title order={3} size="h4">
                    {each.name}
                  </Title>
                  {siteAddress(each) && (
                    <Text size="sm" c="dimmed">
                      {siteAddress(each)}
                    </Text>
                  )}
                  <Image
                    src={sitePoster(company, each.id).qrcode_url}
                    alt={t('qr.siteQrAlt', { name: company.name, site: each.name })}
                    w={SITE_QR_PX}
                    h={SITE_QR_PX}
                    fit="contain"
                  />
                  <Button
                    component={Link}
                    to={{ search: `?site=${encodeURIComponent(each.id)}` }}
                    variant="light"
                    size="xs"
                  >
                    {t('qr.openSite')}
                  </Button>
                </Stack>
              </Paper>
            ))}
          </SimpleGrid>
        </Stack>
      )}
    </Container>
  );
}
