/**
 * axe-core in the page (issue 18): its source is injected as a script and `axe.run` is called
 * with the WCAG 2.x A/AA tags (2.0, 2.1, 2.2) and axe's best practices. Only 'serious' and
 * 'critical' violations count; each is reported with its rule, the route and its nodes.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
const COUNTED = new Set(['serious', 'critical']);

interface AxeNode {
  target: unknown[];
  html: string;
  failureSummary?: string;
}
interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: AxeNode[];
}

/** One serious or critical violation on one screen, ready to print. */
export interface Finding {
  where: string;
  rule: string;
  impact: string;
  help: string;
  nodes: string[];
}

/**
 * Runs axe on the page as it is now and returns its serious and critical violations.
 * The page must have been opened in a context with `bypassCSP: true` (the app's
 * Content-Security-Policy refuses inline scripts, axe's included).
 */
export async function axeFindings(page: Page, where: string): Promise<Finding[]> {
  const loaded = await page.evaluate(() => 'axe' in window);
  if (!loaded) await page.addScriptTag({ content: AXE_SOURCE });
  const violations = await page.evaluate(async (tags) => {
    const axe = (
      window as unknown as {
        axe: {
          run: (context: Document, options: object) => Promise<{ violations: AxeViolation[] }>;
        };
      }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: tags },
      resultTypes: ['violations'],
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({
        target: n.target,
        html: n.html,
        failureSummary: n.failureSummary,
      })),
    }));
  }, AXE_TAGS);
  return violations
    .filter((v) => v.impact !== null && COUNTED.has(v.impact))
    .map((v) => ({
      where,
      rule: v.id,
      impact: v.impact ?? '',
      help: v.help,
      nodes: v.nodes.map(
        (n) =>
          `${n.target.map(String).join(' ')}\n      ${n.html.slice(0, 200)}\n      ${(n.failureSummary ?? '').replace(/\n/g, ' ').slice(0, 300)}`,
      ),
    }));
}

/** The findings as a person reads them: rule, impact, route, then each node. */
export function report(findings: Finding[]): string {
  return findings
    .map(
      (f) =>
        `[${f.impact}] ${f.rule} on ${f.where}: ${f.help}\n${f.nodes.map((n) => `    - ${n}`).join('\n')}`,
    )
    .join('\n');
}
