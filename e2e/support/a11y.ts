/**
 * What the accessibility journey measures in the page itself (issue 18), besides axe: where the
 * keyboard's focus goes and whether it shows, how tall each control is, whether anything is wider
 * than the window.
 */
import type { Page } from 'playwright-core';

/** One stop of the keyboard's focus. */
export interface FocusStop {
  /** The element's accessible name as a person hears it (label, aria-label or text). */
  name: string;
  tag: string;
  /** Its top edge in the document, for the reading order. */
  top: number;
  left: number;
  /** Whether it shows a focus indicator: an outline or a box-shadow it lacks unfocused. */
  indicator: boolean;
  /** What the indicator is, to read in a failure. */
  style: string;
}

/** Reads the focused element: its name, place, and its focus indicator against its blurred look. */
async function focusStop(page: Page): Promise<FocusStop | null> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return null;
    const labelled = el.getAttribute('aria-labelledby');
    const name = (
      el.getAttribute('aria-label') ??
      (labelled
        ? labelled
            .split(' ')
            .map((id) => document.getElementById(id)?.textContent ?? '')
            .join(' ')
        : null) ??
      (el as HTMLInputElement).labels?.[0]?.textContent ??
      el.textContent ??
      ''
    )
      .replace(/\s+/g, ' ')
      .trim();
    const look = (style: CSSStyleDeclaration) => ({
      outline:
        style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 1
          ? `${style.outlineWidth} ${style.outlineStyle} ${style.outlineColor}`
          : '',
      shadow: style.boxShadow === 'none' ? '' : style.boxShadow,
    });
    // The element and the two boxes around it: a field's ring may be drawn on its wrapper
    // (:focus-within), as Mantine's password field does.
    const boxes = [el, el.parentElement, el.parentElement?.parentElement].filter(
      (box): box is HTMLElement => !!box,
    );
    const focused = boxes.map((box) => look(getComputedStyle(box)));
    // The same boxes without the focus: the indicator is what the focus adds.
    el.blur();
    const blurred = boxes.map((box) => look(getComputedStyle(box)));
    el.focus({ preventScroll: true });
    const ring = focused.findIndex(
      (style, i) =>
        (!!style.outline && style.outline !== blurred[i]!.outline) ||
        (!!style.shadow && style.shadow !== blurred[i]!.shadow),
    );
    const box = el.getBoundingClientRect();
    return {
      name,
      tag: el.tagName.toLowerCase(),
      top: Math.round(box.top + window.scrollY),
      left: Math.round(box.left + window.scrollX),
      indicator: ring >= 0,
      style: `outline: ${focused[0]!.outline || 'none'}; box-shadow: ${focused[0]!.shadow || 'none'}`,
    };
  });
}

/**
 * Presses Tab from the top of the page (the focus on the document, as after a page load) until
 * the focus leaves the page or comes back to its first stop, `max` times at most; returns each
 * stop, and whether it is inside `main`.
 */
export async function tabThrough(
  page: Page,
  max: number,
): Promise<(FocusStop & { inMain: boolean })[]> {
  const stops: (FocusStop & { inMain: boolean })[] = [];
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  for (let i = 0; i < max; i++) {
    await page.keyboard.press('Tab');
    const stop = await focusStop(page);
    if (!stop) break;
    const first = stops[0];
    if (first && first.top === stop.top && first.left === stop.left && first.name === stop.name)
      break;
    const inMain = await page.evaluate(() => !!document.activeElement?.closest('main'));
    stops.push({ ...stop, inMain });
  }
  return stops;
}

/**
 * The visible controls of `within` (a selector; every match) lower than `min` px: buttons, links, fields, checkboxes,
 * switches, tabs. WCAG 2.5.8's inline exception: a link inside a sentence (an inline link with
 * running text around it in its block) is sized by the line, and is not counted. A checkbox or a
 * switch counts with its label, which takes the same tap.
 */
export async function smallTargets(page: Page, within: string, min: number): Promise<string[]> {
  return page.evaluate(
    ({ selector, min }) => {
      const roots = [...document.querySelectorAll(selector)];
      if (roots.length === 0) return [`${selector} not found`];
      const controls = roots.flatMap((root) => [
        ...root.querySelectorAll<HTMLElement>(
          'a[href], button, input:not([type="hidden"]), select, textarea, [role="button"], [role="tab"], [role="switch"], [role="checkbox"]',
        ),
      ]);
      const small: string[] = [];
      const shown = (el: HTMLElement) => {
        const style = getComputedStyle(el);
        const box = el.getBoundingClientRect();
        return (
          box.width > 0 &&
          box.height > 0 &&
          style.visibility !== 'hidden' &&
          Number(style.opacity) > 0 &&
          !el.closest('[aria-hidden="true"]')
        );
      };
      const inSentence = (el: HTMLElement) => {
        if (el.tagName !== 'A' || getComputedStyle(el).display !== 'inline') return false;
        const block = el.parentElement;
        if (!block) return false;
        const around = (block.textContent ?? '').replace(el.textContent ?? '', '').trim();
        return around.length > 0;
      };
      for (const el of controls) {
        const input = el as HTMLInputElement;
        // A checkbox or radio is tapped through its label as well: its row is the target.
        // A field's box may wrap its input (a password field's input and its button).
        const target =
          input.type === 'checkbox' || input.type === 'radio'
            ? ((el.closest(
                '.mantine-Checkbox-root, .mantine-Switch-root, .mantine-Radio-root',
              ) as HTMLElement | null) ?? el)
            : ((el.closest('.mantine-Input-input') as HTMLElement | null) ?? el);
        // Mantine draws a checkbox or a switch over a transparent input of the same size.
        if (!shown(target) && !(target === el && input.type === 'checkbox')) continue;
        if (inSentence(el)) continue;
        const height = target.getBoundingClientRect().height;
        if (height + 0.5 < min) {
          const name = (
            el.getAttribute('aria-label') ??
            input.labels?.[0]?.innerText ??
            el.innerText ??
            ''
          )
            .replace(/\s+/g, ' ')
            .trim()
            .slice(0, 60);
          small.push(`${el.tagName.toLowerCase()} '${name}': ${Math.round(height)} px`);
        }
      }
      return small;
    },
    { selector: within, min },
  );
}

/** How much wider than the window the page is (0 when nothing overflows). */
export async function overflow(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
}
