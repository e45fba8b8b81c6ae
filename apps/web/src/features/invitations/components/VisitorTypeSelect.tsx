/**
 * The invited visitors' type (issue 31): the chosen site's active types, the first chosen
 * until the host picks another (the server's own default); a change of site moves to the
 * new site's first. It says what the type will ask the visitor (fields, documents).
 */
import { useEffect } from 'react';
import { NativeSelect } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useAuth } from '../../../lib/auth';
import { useTranslation } from '../../../lib/i18n';
import { fetchVisitorTypes, visitorTypeKeys } from '../../visitor-types/api/visitor-types';

export function VisitorTypeSelect(props: {
  siteId: string;
  value: string;
  onChange: (id: string) => void;
  error?: string;
  name: string;
}) {
  const { t, i18n } = useTranslation(['invitations', 'visitor-types']);
  const { user } = useAuth();
  const company = user?.company_id ?? '';
  const types = useQuery({
    queryKey: visitorTypeKeys.list(company, props.siteId, false),
    queryFn: () => fetchVisitorTypes(company, props.siteId),
    enabled: !!company && !!props.siteId,
    staleTime: 60_000,
  });
  const active = (types.data ?? []).filter((type) => !type.archived);
  const { value, onChange } = props;
  const first = active[0]?.id ?? '';
  const known = active.some((type) => type.id === value);

  // The site's first type until one of its own is chosen.
  useEffect(() => {
    if (types.isSuccess && !known && value !== first) onChange(first);
  }, [types.isSuccess, known, value, first, onChange]);

  if (types.isSuccess && active.length === 0) return null;
  const english = i18n.language.startsWith('en');
  const chosen = active.find((type) => type.id === value);
  const asks = chosen
    ? [
        ...chosen.required_fields.map((field) => t(`visitor-types:requiredFields.${field}`)),
        ...chosen.documents.map((doc) => (english ? doc.title_en : doc.title_fr)),
      ]
    : [];

  return (
    <NativeSelect
      label={t('fields.visitor_type_id')}
      description={
        asks.length > 0 ? t('schedule.typeAsks', { list: asks.join(', ') }) : t('schedule.typeHint')
      }
      data={active.map((type) => ({
        value: type.id,
        label: english ? type.name_en : type.name_fr,
      }))}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      disabled={!types.isSuccess}
      error={props.error}
      data-path="visitor_type_id"
      name={props.name}
    />
  );
}
