import type { ReactNode } from 'react';
import { Group, TextInput } from '@mantine/core';
import { DateTimePicker, type CalendarAriaLabels } from '@mantine/dates';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from '../../../lib/i18n';
import 'dayjs/locale/fr';
import type { LogFilterState } from '../lib/use-log-filters';
import '@mantine/dates/styles.css';

interface LogFilterBarProps {
  /** The list's filters (useLogFilters): the bar reads and sets search and range there. */
  log: LogFilterState;
  /** Buttons at the end of the bar (the CSV export). */
  actions?: ReactNode;
}

/** A log's search box (name, e-mail or code) and its check-in range, dates with times. */
export function LogFilterBar({ log, actions }: LogFilterBarProps) {
  const { t, i18n } = useTranslation('checkinLogs');
  // A phone has no room for the calendar beside the field: it opens in a modal there.
  const narrow = useMediaQuery('(max-width: 36em)');
  const timeLabels = {
    hoursInputLabel: t('filters.hours'),
    minutesInputLabel: t('filters.minutes'),
  };
  const calendarLabels = t('filters.calendar', { returnObjects: true }) as CalendarAriaLabels;
  return (
    <Group align="flex-end" gap="sm" mb="md" wrap="wrap">
      <TextInput
        label={t('filters.search')}
        placeholder={t('filters.searchPlaceholder')}
        type="search"
        value={log.search}
        onChange={(e) => log.setSearch(e.currentTarget.value)}
        w={{ base: '100%', xs: 260 }}
      />
      <DateTimePicker
        type="range"
        label={t('filters.range')}
        placeholder={t('filters.rangePlaceholder')}
        value={log.range}
        onChange={(value) => log.setRange(value)}
        locale={i18n.language.startsWith('en') ? 'en' : 'fr'}
        valueFormat="DD/MM/YYYY HH:mm"
        labelSeparator={t('filters.rangeSeparator')}
        allowSingleDateInRange
        clearable
        clearButtonProps={{ 'aria-label': t('filters.clearRange') }}
        timePickerProps={{ ...timeLabels, 'aria-label': t('filters.startTime') }}
        endTimePickerProps={{ ...timeLabels, 'aria-label': t('filters.endTime') }}
        submitButtonProps={{ 'aria-label': t('filters.apply') }}
        ariaLabels={calendarLabels}
        dropdownType={narrow ? 'modal' : 'popover'}
        modalProps={{ title: t('filters.range'), centered: true }}
        w={{ base: '100%', xs: 340 }}
      />
      {actions && (
        <Group gap="xs" ml={{ base: 0, xs: 'auto' }}>
          {actions}
        </Group>
      )}
    </Group>
  );
}
