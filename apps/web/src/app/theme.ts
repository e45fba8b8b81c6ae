import {
  createTheme,
  Modal,
  Notification,
  type CSSVariablesResolver,
  type MantineColorsTuple,
} from '@mantine/core';

// A deep indigo: shade 7 (#3f51c6) on white is 6.2:1, above WCAG AA for all text.
const sesame: MantineColorsTuple = [
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
  },
  dark: {},
});

/**
 * The theme. `closeLabel` names the close button of toasts and dialogs (Mantine's has no
 * name: axe's button-name), in the person's language.
 */
export function sesameTheme(closeLabel: string) {
  return createTheme({
    primaryColor: 'sesame',
    primaryShade: 7,
    colors: { sesame },
    fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    defaultRadius: 'md',
    headings: { fontWeight: '700' },
    // The focus ring shows for the keyboard (:focus-visible), never hidden (app/a11y.css
    // gives fields one too).
    focusRing: 'auto',
    components: {
      Notification: Notification.extend({
        defaultProps: { closeButtonProps: { 'aria-label': closeLabel } },
      }),
      Modal: Modal.extend({
        defaultProps: { closeButtonProps: { 'aria-label': closeLabel } },
      }),
    },
  });
}
