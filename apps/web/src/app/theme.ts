import { createTheme, type MantineColorsTuple } from '@mantine/core';

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

export const theme = createTheme({
  primaryColor: 'sesame',
  primaryShade: 7,
  colors: { sesame },
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  defaultRadius: 'md',
  headings: { fontWeight: '700' },
});
