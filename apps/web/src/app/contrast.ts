/**
 * Colour contrast (issue 18, WCAG 2.2 AA 1.4.3): the WCAG 2.x ratio between two colours, and the
 * palettes the theme hands to Mantine, darkened where Mantine's own shades are too pale for text.
 * Pure functions on '#rrggbb' colours, so the rule is unit-tested without a browser.
 */

/** Normal text needs 4.5:1; a little over it, so a rounding in a checker never tips it under. */
export const TEXT_RATIO = 4.6;
/**
 * The page's background (AppLayout.module.css), a little darker than white: a shade that reads on it
 * reads on white cards too.
 */
export const PAGE_BACKGROUND = '#f6f7fb';

function channels(hex: string): [number, number, number] {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!match) throw new Error(`Not a #rrggbb colour: ${hex}`);
  return [parseInt(match[1]!, 16), parseInt(match[2]!, 16), parseInt(match[3]!, 16)];
}

function toHex([r, g, b]: [number, number, number]): string {
  return `#${[r, g, b].map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;
}

/** WCAG 2.x relative luminance. */
export function luminance(hex: string): number {
  const [r, g, b] = channels(hex).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The contrast ratio of two colours, from 1 (the same) to 21 (black on white). */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/**
 * The colour itself when it already reaches `ratio` against `background`, else the lightest
 * darkening of it (toward black, keeping its hue) that does.
 */
export function darkenTo(color: string, background: string, ratio: number): string {
  if (contrastRatio(color, background) >= ratio) return color;
  const rgb = channels(color);
  for (let step = 1; step <= 100; step++) {
    const candidate = toHex(rgb.map((c) => c * (1 - step / 100)) as [number, number, number]);
    if (contrastRatio(candidate, background) >= ratio) return candidate;
  }
  return '#000000';
}

/**
 * A Mantine palette (ten shades, 0 the palest) whose dark shades carry text. Mantine fills
 * buttons and badges with shade 7 (the theme's primary shade) and hovers them with shade 8, both
 * under white text; its 'light' variant writes shade 9 on shade 1; outlines and `c="red.7"` write
 * those shades on white. Mantine's green.9 on white is 4.4:1, its yellow.9 on yellow.1 2.7:1.
 * So, as text on the page's background (white text on it reads better still): shade 7 reaches
 * 4.6:1, shade 8 5.2:1 (a hover stays darker than its button), shade 9 6:1, and 4.6:1 on shade 1.
 * Shades 0 to 6 (backgrounds, borders) are kept.
 */
export function readablePalette(shades: readonly string[]): string[] {
  const palette = [...shades];
  palette[7] = darkenTo(palette[7]!, PAGE_BACKGROUND, TEXT_RATIO);
  palette[8] = darkenTo(palette[8]!, PAGE_BACKGROUND, 5.2);
  palette[9] = darkenTo(darkenTo(palette[9]!, PAGE_BACKGROUND, 6), palette[1]!, TEXT_RATIO);
  return palette;
}
