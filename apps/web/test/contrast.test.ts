/**
 * The colour rule (issue 18, WCAG 1.4.3): every shade Mantine writes text in, or puts white text
 * on, reaches 4.5:1 in the theme the app uses; dimmed text and placeholders too.
 */
import type { MantineTheme } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import {
  contrastRatio,
  darkenTo,
  PAGE_BACKGROUND,
  readablePalette,
  TEXT_RATIO,
} from '../src/app/contrast';
import { cssVariablesResolver, sesameTheme } from '../src/app/theme';

const WHITE = '#ffffff';

describe('contrast', () => {
  it('computes the WCAG ratio', () => {
    expect(contrastRatio('#000000', WHITE)).toBeCloseTo(21, 5);
    expect(contrastRatio(WHITE, WHITE)).toBe(1);
    // The usual threshold grey: #767676 on white is 4.54:1.
    expect(contrastRatio('#767676', WHITE)).toBeCloseTo(4.54, 2);
    expect(contrastRatio(WHITE, '#767676')).toBe(contrastRatio('#767676', WHITE));
  });

  it('darkens a colour only as far as needed, and leaves a readable one as it is', () => {
    expect(darkenTo('#3f51c6', WHITE, TEXT_RATIO)).toBe('#3f51c6');
    const green = darkenTo('#2b8a3e', WHITE, TEXT_RATIO);
    expect(contrastRatio(green, WHITE)).toBeGreaterThanOrEqual(TEXT_RATIO);
    // One step less dark would not do.
    expect(contrastRatio(green, WHITE)).toBeLessThan(TEXT_RATIO + 0.2);
    expect(() => darkenTo('teal', WHITE, TEXT_RATIO)).toThrow(/#rrggbb/);
  });

  it('keeps the pale shades and the order of the dark ones', () => {
    const yellow = [
      '#fff9db',
      '#fff3bf',
      '#ffec99',
      '#ffe066',
      '#ffd43b',
      '#fcc419',
      '#fab005',
      '#f59f00',
      '#f08c00',
      '#e67700',
    ];
    const readable = readablePalette(yellow);
    expect(readable.slice(0, 7)).toEqual(yellow.slice(0, 7));
    const ratios = readable.slice(7).map((shade) => contrastRatio(shade, WHITE));
    expect(ratios[0]).toBeLessThan(ratios[1]!);
    expect(ratios[1]).toBeLessThan(ratios[2]!);
  });

  it("every colour of the app's theme carries text at 4.5:1 where Mantine uses it", () => {
    const theme = sesameTheme({
      close: 'Fermer',
      clear: 'Effacer',
      togglePassword: 'Afficher',
      pageControls: { first: '1', previous: '<', next: '>', last: '»' },
    });
    const colors = theme.colors ?? {};
    expect(Object.keys(colors).length).toBeGreaterThan(10);
    for (const [name, shades] of Object.entries(colors)) {
      if (!shades) continue;
      for (const shade of [7, 8, 9]) {
        for (const background of [WHITE, PAGE_BACKGROUND]) {
          expect(
            contrastRatio(shades[shade]!, background),
            `${name}.${shade} on ${background}`,
          ).toBeGreaterThan(4.5);
        }
      }
      // The 'light' variant: shade 9 on shade 1.
      expect(contrastRatio(shades[9]!, shades[1]!), `${name}.9 on ${name}.1`).toBeGreaterThan(4.5);
    }
  });

  it('dimmed text and placeholders read at 4.5:1 on white and on the page', () => {
    const variables = cssVariablesResolver({} as MantineTheme).light;
    for (const name of ['--mantine-color-dimmed', '--mantine-color-placeholder']) {
      const color = variables[name as keyof typeof variables] as string;
      expect(contrastRatio(color, WHITE), name).toBeGreaterThan(4.5);
      expect(contrastRatio(color, PAGE_BACKGROUND), name).toBeGreaterThan(4.5);
    }
  });
});
