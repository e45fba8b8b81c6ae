import { describe, expect, it } from 'vitest';
import type { Site } from '@sesame/shared';
import {
  emailList,
  invalidEmail,
  securityEmailsOf,
  siteValues,
} from '../src/features/sites/lib/sites';

describe("a site's security contacts (issue 31)", () => {
  it('reads one address a line, or separated by commas or semicolons, each once', () => {
    expect(emailList(' Surete@Demo.ci\nsoc@demo.ci, surete@demo.ci;\n\n')).toEqual([
      'surete@demo.ci',
      'soc@demo.ci',
    ]);
    expect(emailList('')).toEqual([]);
  });

  it('names the first address that is not one', () => {
    expect(invalidEmail(['a@b.ci', 'pas-une-adresse', 'c@'])).toBe('pas-une-adresse');
    expect(invalidEmail(['a@b.ci'])).toBeUndefined();
  });

  it("fills the form with the site's contacts, one a line", () => {
    const site = { security_emails: ['a@b.ci', 'c@d.ci'] } as unknown as Site;
    expect(securityEmailsOf(site)).toEqual(['a@b.ci', 'c@d.ci']);
    expect(siteValues(site, 'UTC').security_emails).toBe('a@b.ci\nc@d.ci');
    expect(siteValues(undefined, 'UTC').security_emails).toBe('');
  });
});
