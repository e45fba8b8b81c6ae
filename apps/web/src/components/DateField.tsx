import { lazy, Suspense, useRef, useState } from 'react';
import { ActionIcon, TextInput, type TextInputProps } from '@mantine/core';
import { maskDate } from '../lib/date-mask';

// The calendar, and the dialog it opens in, load when it is first wanted: the pointer
// over its button, the focus on it, or a click (a phone needs it only then).
const loadCalendar = () => import('./DateFieldCalendar');
const Calendar = lazy(loadCalendar);

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
  const button = useRef<HTMLButtonElement>(null);
  const iso = toIso(value);
  // Back to the calendar button, where the person was (the dialog may have opened before
  // the button had the focus, on a touch screen).
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  return (
    <TextInput
      {...props}
      value={value}
      onChange={(e) => onChange(maskDate(e.currentTarget.value))}
      maxLength={10}
      inputMode="numeric"
      rightSection={
        props.readOnly ? null : (
          <>
            <ActionIcon
              variant="subtle"
              aria-label={calendarLabel}
              aria-haspopup="dialog"
              ref={button}
              onPointerEnter={() => void loadCalendar()}
              onFocus={() => void loadCalendar()}
              onClick={() => setOpen(true)}
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
            {open && (
              <Suspense fallback={null}>
                <Calendar
                  dialogTitle={props.label ?? calendarLabel}
                  onClose={close}
                  locale={language.startsWith('en') ? 'en' : 'fr'}
                  value={iso}
                  defaultDate={iso ?? minDate}
                  minDate={minDate}
                  onChange={(picked) => {
                    if (picked) onChange(fromIso(picked));
                    close();
                  }}
                />
              </Suspense>
            )}
          </>
        )
      }
    />
  );
}
