import { countryName, countryOptions, isCountryCode } from '@sesame/shared';
import { useMemo } from 'react';
import { useTranslation } from './i18n';

/**
 * A form's country choices in the screen's language (Côte d'Ivoire first), valued by ISO
 * code. A stored value that is no code (written before countries were codes) stays
 * offered as written, so editing a record does not silently drop it. Apart from any
 * component: the visitor form's native list uses it without the staff forms' Select.
 */
export function useCountryOptions(
  current?: string | null,
  /**
   * False: only the current value (if any), named; the ~250 names are looked up and sorted,
   * and their options rendered, once it turns true (the visitor form's first paint, issue 19).
   */
  all = true,
): { value: string; label: string }[] {
  const { i18n } = useTranslation();
  const language = i18n.language;
  return useMemo(() => {
    if (!all) return current ? [{ value: current, label: countryName(current, language) }] : [];
    const options: { value: string; label: string }[] = countryOptions(language);
    return current && !isCountryCode(current)
      ? [{ value: current, label: countryName(current, language) }, ...options]
      : options;
  }, [language, current, all]);
}
