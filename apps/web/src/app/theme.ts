import {
  colorsTuple,
  createTheme,
  DEFAULT_THEME,
  type CSSVariablesResolver,
  type InputClearButtonProps,
  type MantineColorsTuple,
  type ModalProps,
  type NotificationProps,
  type PaginationProps,
  type PasswordInputProps,
} from '@mantine/core';
import { readablePalette } from './contrast';

// A deep indigo: shade 7 (#3f51c6) on white is 6.2:1, above WCAG AA for all text.
export const sesame: MantineColorsTuple = [
  '#eef0ff',
  '#dde1fb',
  '#b8c0f2',
  '#909deb',
  '#6f7fe4',
  '#5a6ce0',
  '#4f62df',
  '#3f51c6',
  '#3648b2',
  '#2a3d9e',
];

/**
 * Issue 18 (WCAG 2.2 AA, 1.4.3): Mantine's dimmed text (gray.6, #868e96) is 3.3:1 on white and
 * its placeholders (gray.5) 2.1:1. Dimmed text (descriptions under fields, empty lists, the
 * footer, secondary lines) is #5c636a: 6.1:1 on white, 5.7:1 on the page's #f6f7fb, 5.1:1 on
 * gray.2 (a hovered row). Placeholders stay lighter than a typed value, at #666d75 (5.2:1).
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': '#5c636a',
    '--mantine-color-placeholder': '#666d75',
    // A field's error message: Mantine's red.6 is 3.3:1 on white.
    '--mantine-color-error': 'var(--mantine-color-red-8)',
  },
  dark: {},
});

/**
 * Mantine's palettes with their text shades darkened where they fall under 4.5:1 (app/contrast:
 * green, teal, orange, yellow, red…), so every `color=` of every component stays readable.
 */
const readableColors: Record<string, MantineColorsTuple> = Object.fromEntries(
  Object.entries(DEFAULT_THEME.colors).map(([name, shades]) => [
    name,
    colorsTuple(readablePalette(shades)),
  ]),
);

/** Names, in the person's language, for Mantine's buttons that show only an icon. */
export interface ControlLabels {
  /** Toasts' and dialogs' close button. */
  close: string;
  /** A clearable field's clear button. */
  clear: string;
  /** A password field's show/hide button. */
  togglePassword: string;
  /** A pagination's arrows. */
  pageControls: Record<'first' | 'previous' | 'next' | 'last', string>;
}

/**
 * The theme. Mantine's icon buttons have no name in the person's language (axe's button-name):
 * `labels` names them.
 */
export function sesameTheme(labels: ControlLabels) {
  return createTheme({
    primaryColor: 'sesame',
    primaryShade: 7,
    colors: { ...readableColors, sesame },
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    defaultRadius: 'md',
    headings: { fontWeight: '700' },
    // The focus ring shows for the keyboard (:focus-visible), never hidden (app/a11y.css
    // gives fields one too).
    focusRing: 'auto',
    // `X.extend(…)` only types its argument, and would bring X's code into the first bundle:
    // every component is typed with `satisfies` instead, and loads with the screens that
    // use it (the password field with the login, not on the home page).
    components: {
      Notification: {
        defaultProps: {
          closeButtonProps: { 'aria-label': labels.close },
        } satisfies Partial<NotificationProps>,
      },
      Modal: {
        defaultProps: {
          closeButtonProps: { 'aria-label': labels.close },
        } satisfies Partial<ModalProps>,
      },
      InputClearButton: {
        defaultProps: { 'aria-label': labels.clear } satisfies Partial<InputClearButtonProps>,
      },
      Pagination: {
        defaultProps: {
          getControlProps: (control) => ({ 'aria-label': labels.pageControls[control] }),
        } satisfies Partial<PaginationProps>,
      },
      // Reachable with the keyboard (Mantine leaves it out of the tab order), named.
      PasswordInput: {
        defaultProps: {
          visibilityToggleFocusable: true,
          visibilityToggleButtonProps: { 'aria-label': labels.togglePassword },
        } satisfies Partial<PasswordInputProps>,
      },
    },
  });
}
