/**
 * CreateVisitor (`/{domain}/meeting[?site=<id>]`): the visitor form (the company's
 * sites to choose from, or the link's site, issue 28), then the two calls of
 * spec §4 — visitor (200 → 'Visiteur créé avec succès.'), then request
 * (201 → 'Demande créée avec succès.') — and on to RequestMeeting with the id.
 */
import { documentRefusal } from '../../../components/visitor-form/document-refusal';
import { useCallback, useState } from 'react';
import { Alert, Container } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from '../../../lib/i18n';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { storeVisitorSummary } from '../../../components/visitor-form/summary';
import { VisitorForm } from '../../../components/visitor-form/VisitorForm';
import { ApiError } from '../../../lib/api-client';
import { useCompany } from '../../../lib/company';
import { useDelayedNavigate } from '../../../lib/use-delayed-navigate';
import {
  createRequest,
  createVisitor,
  usePublicSites,
  usePublicVisitorTypes,
} from '../api/visitors';
import { failureText } from '../lib/outcome';
import { ScreenLoader } from '../../../components/ScreenLoader';

export default function CreateVisitorPage() {
  const { domain = '' } = useParams();
  const { t } = useTranslation('visitors');
  const navigate = useNavigate();
  const navigateLater = useDelayedNavigate();
  const company = useCompany(domain);
  const [params] = useSearchParams();
  const linkSite = params.get('site') ?? undefined;
  // Without the list (an error), the form asks nothing and the server's answer says it.
  const sites = usePublicSites(company.data?.slug);
  const [submitting, setSubmitting] = useState(false);
  // Issue 31: the visitor types of the site the form has (the link's, the only one, or chosen).
  const [typeSite, setTypeSite] = useState<string | undefined>(linkSite);
  const types = usePublicVisitorTypes(company.data?.slug, typeSite);
  const onSiteChange = useCallback((site: string | undefined) => setTypeSite(site), []);

  const submit = async (formData: FormData) => {
    if (!company.data) return;
    setSubmitting(true);
    try {
      formData.set('company_id', company.data.id);
      const visitor = await createVisitor(formData);
      notifications.show({ color: 'teal', message: t('outcome.visitorCreated') });
      const v = visitor.data;
      const siteList = sites.data ?? [];
      const site =
        siteList.length > 1
          ? siteList.find((s) => s.id === formData.get('site_id'))?.name
          : undefined;
      storeVisitorSummary({
        firstname: v.firstname,
        lastname: v.lastname,
        title: '',
        location: v.company.name,
        address: v.address ?? '',
        city: v.city ?? '',
        state: v.state ?? '',
        country: v.country ?? '',
        zipcode: v.zipcode ?? '',
        date_event: v.request_date ?? '',
        time_event: v.request_time ?? '',
        site,
      });
      const request = await createRequest({
        visitor_id: v.visitor_id,
        host: String(formData.get('host') ?? ''),
        host_user_id: (formData.get('host_user_id') as string | null) || null,
        reason: String(formData.get('reason') ?? ''),
      });
      notifications.show({ color: 'teal', message: t('outcome.requestCreated') });
      await navigate(`/${domain}/request-meeting/${request.data.id}`);
    } catch (error) {
      // A document the server refused (its type by its bytes, its size) is said under its field.
      const refused = documentRefusal(error);
      if (refused) return refused;
      const { title, message } = failureText(t, error);
      notifications.show({ color: 'red', title, message, autoClose: 8000 });
      if (error instanceof ApiError && error.status === 401) {
        navigateLater(`/${domain}/request-meeting`);
      }
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Container size="md" py={{ base: 'sm', sm: 'xl' }} px={{ base: 'xs', sm: 'md' }}>
      {company.isPending ||
      (company.data && (sites.isPending || (types.isLoading && typeSite === linkSite))) ? (
        // The form will be taller than the screen.
        <ScreenLoader label={t('common:loading')} />
      ) : company.isError ? (
        <Alert color="red" role="alert">
          {company.error instanceof ApiError && company.error.status === 404
            ? t('outcome.companyNotFound')
            : t('outcome.status500')}
        </Alert>
      ) : (
        <VisitorForm
          onSubmit={submit}
          submitting={submitting}
          timeZone={company.data.timezone}
          companySlug={company.data.slug}
          sites={sites.data}
          siteId={linkSite}
          visitorTypes={types.data}
          onSiteChange={onSiteChange}
        />
      )}
    </Container>
  );
}
