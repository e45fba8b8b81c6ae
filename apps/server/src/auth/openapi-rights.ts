/**
 * The OpenAPI sentence that says who may call a route, written from the shared
 * matrix (ACTIONS), so that the matrix has one textual copy: route summaries say
 * what a route does, never who may call it.
 */
import { ACTIONS, scopesFor, type Action, type ActionRule } from '@sesame/shared';
import type { RouteRight } from './authorize';

function actionSentence(action: Action): string {
  const rule: ActionRule = ACTIONS[action];
  const parts = [`Right \`${action}\`: ${rule.roles.join(', ')}, each within their own company.`];
  if (rule.allCompanies.length) parts.push(`Every company: ${rule.allCompanies.join(', ')}.`);
  if (rule.chooseCompany?.length)
    parts.push(`May choose the company of what they create: ${rule.chooseCompany.join(', ')}.`);
  return parts.join(' ');
}

/**
 * Issue 34: the API key scopes that open a route (any of its rights' scopes), or that no key
 * may call it. A route that names no right is never a key's (`keysSentence([])`).
 */
export function keysSentence(actions: readonly Action[]): string {
  const scopes = [...new Set(actions.flatMap((action) => scopesFor(action)))];
  if (scopes.length === 0) return 'API keys: not allowed.';
  const named = scopes.map((scope) => `\`${scope}\``).join(', ');
  return `API keys: scope ${named}${scopes.length > 1 ? ' (any one)' : ''}.`;
}

/** One right, or several of which any one will do (`config.action` as a list). */
export function rightsSentence(right: RouteRight): string {
  const actions: readonly Action[] = typeof right === 'string' ? [right] : right;
  const rights =
    actions.length === 1
      ? actionSentence(actions[0]!)
      : ['Any one of these rights.', ...actions.map(actionSentence)].join('\n\n');
  return `${rights}\n\n${keysSentence(actions)}`;
}
