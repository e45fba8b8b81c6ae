import { describe, expect, it } from 'vitest';
import { companySearchQuery } from '../src/lib/company';

describe('companySearchQuery: what the company picker searches', () => {
  it('the chosen company’s own name shown in the box searches nothing: every company is listed', () => {
    expect(companySearchQuery('Demo', 'Demo')).toBe('');
    expect(companySearchQuery(' Demo ', 'Demo')).toBe('');
  });

  it('what is typed is searched, trimmed', () => {
    expect(companySearchQuery('Glob', 'Demo')).toBe('Glob');
    expect(companySearchQuery('  Acme ', undefined)).toBe('Acme');
    expect(companySearchQuery('', undefined)).toBe('');
  });
});
