/**
 * The OpenAPI sentence that says who may call a route, written from the shared
 * matrix (ACTIONS), so that the matrix has one textual copy: route summaries say
 * what a route does, never who may call it.
 */
import { ACTIONS, type Action, type ActionRule } from '@sesame/shared';

export function rightsSentence(action: Action): string {
  const rule: ActionRule = ACTIONS[action];
  const parts = [`Right \`${action}\`: ${rule.roles.join(', ')}, each within their own company.`];
  if (rule.allCompanies.length) parts.push(`Every company: ${rule.allCompanies.join(', ')}.`);
  if (rule.chooseCompany?.length)
    parts.push(`May choose the company of what they create: ${rule.chooseCompany.join(', ')}.`);
  return parts.join(' ');
}
