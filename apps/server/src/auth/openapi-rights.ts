/**
 * The OpenAPI sentence that says who may call a route, written from the shared
 * matrix (ACTIONS), so that the matrix has one textual copy: route summaries say
 * what a route does, never who may call it.
 */
import { ACTIONS, type Action, type ActionRule } from '@sesame/shared';
import type { RouteRight } from './authorize';

function actionSentence(action: Action): string {
  const rule: ActionRule = ACTIONS[action];
  const parts = [`Right \`${action}\`: ${rule.roles.join(', ')}, each within their own company.`];
  if (rule.allCompanies.length) parts.push(`Every company: ${rule.allCompanies.join(', ')}.`);
  if (rule.chooseCompany?.length)
    parts.push(`May choose the company of what they create: ${rule.chooseCompany.join(', ')}.`);
  return parts.join(' ');
}

/** One right, or several of which any one will do (`config.action` as a list). */
export function rightsSentence(right: RouteRight): string {
  if (typeof right === 'string') return actionSentence(right);
  if (right.length === 1) return actionSentence(right[0]!);
  return ['Any one of these rights.', ...right.map(actionSentence)].join('\n\n');
}
