/**
 * Issue 27: a long e-mail address in the request list and an event's participants may go on a
 * new line after its '@' and before a dot (a <wbr> between its parts), never inside a word.
 */
import { describe, expect, it } from 'vitest';
import { emailParts } from '../src/lib/email-breaks';

describe("an e-mail address's line breaks", () => {
  it("come after the '@' and before each dot", () => {
    expect(
      emailParts('marie-christine.kouassi@societe-ivoirienne-de-raffinage.example.com'),
    ).toEqual([
      'marie-christine',
      '.kouassi@',
      'societe-ivoirienne-de-raffinage',
      '.example',
      '.com',
    ]);
  });

  it('leave the address whole when joined, whatever it holds', () => {
    for (const address of [
      'a@b.c',
      'awa.kone@example.com',
      'first.last+tag@sub.domain.example.co.uk',
      'no-dot@localhost',
      '.leading@x.y',
      'double..dot@x.y',
      'not an address',
      '',
    ]) {
      expect(emailParts(address).join('')).toBe(address);
    }
  });

  it('never cut a part without a dot or an @', () => {
    expect(emailParts('jean-baptiste@example')).toEqual(['jean-baptiste@', 'example']);
    expect(emailParts('nodots')).toEqual(['nodots']);
  });
});
