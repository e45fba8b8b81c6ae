/**
 * index.html paints the header bar from the HTML alone, before any script (issue 19: the
 * public pages were white for the seconds their JavaScript took on a phone). The app then
 * renders over it, so the two must look the same: this holds the first screen's colours
 * and height to the app's header (AppLayout.module.css) and brand colour (the theme).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sesame } from '../src/app/theme';

const WEB = path.resolve(import.meta.dirname, '..');
const indexHtml = readFileSync(path.join(WEB, 'index.html'), 'utf8');
const layoutCss = readFileSync(path.join(WEB, 'src/app/layout/AppLayout.module.css'), 'utf8');

/** The declarations of `selector`'s rule in `css`, as a property → value map. */
function rule(css: string, selector: string): Record<string, string> {
  const body = new RegExp(`${selector.replace('.', '\\.')}\\s*\\{([^}]*)\\}`).exec(css)?.[1];
  if (body === undefined) throw new Error(`no rule for ${selector}`);
  return Object.fromEntries(
    body
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .split(';')
      .map((declaration) => declaration.split(':').map((part) => part.trim()))
      .filter((parts): parts is [string, string] => parts.length === 2 && parts[0] !== ''),
  );
}

describe('the first screen in index.html', () => {
  it('sits in #root, where the first render replaces it, hidden from assistive technology', () => {
    expect(indexHtml).toMatch(
      /<div id="root">[\s\S]*<div class="boot" aria-hidden="true">[\s\S]*<\/div>\s*<\/div>\s*<script/,
    );
  });

  it('draws the header as the app does: background, border, height, page colour', () => {
    const header = rule(layoutCss, '.header');
    const bootHeader = rule(indexHtml, '.boot-header');
    expect(bootHeader.background).toBe(header.background);
    expect(bootHeader['border-bottom']).toBe(header['border-bottom']);
    expect(rule(indexHtml, '.boot-inner')['min-height']).toBe(
      rule(layoutCss, '.headerInner')['min-height'],
    );
    expect(rule(indexHtml, '.boot').background).toBe(rule(layoutCss, '.page').background);
  });

  it("names Sésame in the brand's colour, as the header does before the company loads", () => {
    expect(rule(indexHtml, '.boot-brand').color).toBe(sesame[8]);
    expect(indexHtml).toContain('<span class="boot-brand">Sésame</span>');
  });
});
