import { lazy, Suspense, useState } from 'react';
import { ActionIcon, Loader, Popover, TextInput, type TextInputProps } from '@mantine/core';
import { maskDate } from '../lib/date-mask';

// The calendar loads when it is first opened (a phone needs it only then).
const DatePicker = lazy(() => import('./DateFieldCalendar'));

/** 'YYYY-MM-DD' (the calendar) ↔ 'DD/MM/YYYY' (the field, spec §5). */
const fromIso = (iso: string) => iso.slice(0, 10).split('-').reverse().join('/');
const toIso = (ddmmyyyy: string) => {
  const [dd, mm, yyyy] = ddmmyyyy.split('/');
  return dd && mm && yyyy && yyyy.length === 4 ? `${yyyy}-${mm}-${dd}` : null;
};

interface DateFieldProps extends Omit<TextInputProps, 'value' | 'onChange' | 'rightSection'> {
  value: string;
  onChange: (value: string) => void;
  calendarLabel: string;
  language: string;
  /** 'YYYY-MM-DD': days before it cannot be picked. */
  minDate?: string;
}

/**
 * A DD/MM/YYYY text field (10 characters) with a calendar picker (none when read-only);
 * the slashes come by themselves as one types the digits (`maskDate`).
 */
export function DateField({
  value,
  onChange,
  calendarLabel,
  language,
  minDate,
  ...props
}: DateFieldProps) {
  const [open, setOpen] = useState(false);
  const iso = toIso(value);
  return (
    <TextInput
      {...props}
      value={value}
      onChange={(e) => onChange(maskDate(e.currentTarget.value))}
      maxLength={10}
      inputMode="numeric"
      rightSection={
        props.readOnly ? null : (
          <Popover opened={open} onChange={setOpen} position="bottom-end" withinPortal>
            <Popover.Target>
              <ActionIcon
                variant="subtle"
                aria-label={calendarLabel}
                onClick={() => setOpen((o) => !o)}
              >
                <svg
                  width="18"
                  height="18"
                  viewBox="0 0 24 24"
                  fill="none"
                  stroke="currentColor"
                  strokeWidth="2"
                  aria-hidden="true"
                >
                  <rect x="3" y="5" width="18" height="16" rx="2" />
                  <path d="M16 3v4M8 3v4M3 11h18" />
                </svg>
              </ActionIcon>
            </Popover.Target>
            <Popover.Dropdown>
              <Suspense fallback={<Loader size="sm" m="md" aria-label={calendarLabel} />}>
                <DatePicker
                  locale={language.startsWith('en') ? 'en' : 'fr'}
                  value={iso}
                  defaultDate={iso ?? minDate}
                  minDate={minDate}
                  onChange={(picked) => {
                    if (picked) onChange(fromIso(picked));
                    setOpen(false);
                  }}
                />
              </Suspense>
            </Popover.Dropdown>
          </Popover>
        )
      }
    />
  );
}
