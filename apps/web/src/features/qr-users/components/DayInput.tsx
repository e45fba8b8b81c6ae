import { DateInput, type DateInputProps } from '@mantine/dates';
import 'dayjs/locale/fr';
import '@mantine/dates/styles.css';

/** 'DD/MM/YYYY' as typed → 'YYYY-MM-DD', or null when it is not a real day. */
export function parseDay(text: string): string | null {
  const match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text.trim());
  if (!match) return null;
  const [, d, m, y] = match as unknown as [string, string, string, string];
  const iso = `${y}-${m.padStart(2, '0')}-${d.padStart(2, '0')}`;
  const date = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === iso ? iso : null;
}

/** A calendar day: shown DD/MM/YYYY (typed or picked), valued 'YYYY-MM-DD'. */
export function DayInput({
  language,
  ...props
}: Omit<DateInputProps, 'valueFormat' | 'dateParser' | 'locale'> & { language: string }) {
  return (
    <DateInput
      {...props}
      valueFormat="DD/MM/YYYY"
      dateParser={parseDay}
      locale={language.startsWith('en') ? 'en' : 'fr'}
    />
  );
}
