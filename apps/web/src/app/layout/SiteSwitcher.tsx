/**
 * The header's site switcher (issue 28): which site the staff screens show, remembered
 * per company (lib/site.tsx). Shown only when the person sees more than one site; "Tous
 * les sites" for whoever may see them all. Loaded with a session, never on a public page.
 */
import { Select } from '@mantine/core';
import { useTranslation } from '../../lib/i18n';
import { ALL_SITES, allowsAllSites, useSiteChoice } from '../../lib/site';

export default function SiteSwitcher() {
  const { t } = useTranslation();
  const { sites, siteId, setSiteId, multi } = useSiteChoice();
  if (!multi) return null;
  // A person limited to their sites sees only those (the server lists no other).
  const data = [
    ...(allowsAllSites(sites, false) ? [{ value: ALL_SITES, label: t('sites.all') }] : []),
    ...sites.map((site) => ({ value: site.id, label: site.name })),
  ];
  return (
    <Select
      size="xs"
      w={{ base: 130, sm: 180 }}
      aria-label={t('sites.label')}
      title={t('sites.label')}
      data={data}
      value={siteId ?? ALL_SITES}
      onChange={(value) => setSiteId(!value || value === ALL_SITES ? undefined : value)}
      allowDeselect={false}
      checkIconPosition="right"
      comboboxProps={{ withinPortal: true }}
      data-testid="site-switcher"
    />
  );
}
