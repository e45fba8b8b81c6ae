import { describe, expect, it } from 'vitest';
import { watchlistEntryInputSchema, type WatchlistEntry } from '@sesame/shared';
import {
  entryName,
  entryValues,
  matchLabel,
  similarityPercent,
} from '../src/features/watchlist/lib/watchlist';

describe('the watchlist screens', () => {
  it('says a name match with its similarity, an exact one by what matched', () => {
    expect(matchLabel('name', 0.874)).toEqual({ key: 'matched.nameAt', values: { percent: 87 } });
    expect(matchLabel('name', null)).toEqual({ key: 'matched.name' });
    expect(matchLabel('email', null)).toEqual({ key: 'matched.email' });
    expect(matchLabel('id_number', 1)).toEqual({ key: 'matched.id_number' });
  });

  it('never rounds a similarity up to the threshold it missed', () => {
    expect(similarityPercent(0.599)).toBe(59);
    expect(similarityPercent(1.2)).toBe(100);
    expect(similarityPercent(null)).toBeNull();
  });

  it('reads an entry into the form and the schema accepts it back', () => {
    const entry: WatchlistEntry = {
      id: 'e1',
      firstname: 'Koffi',
      lastname: 'Yao',
      email: null,
      phone: '+2250701020304',
      id_number: null,
      reason: 'Badge volé',
      until: '31/12/2027',
      active: true,
      created_at: '2026-11-28T08:00:00Z',
      created_by: null,
    };
    const values = entryValues(entry);
    expect(values.email).toBe('');
    expect(entryName(entry)).toBe('Koffi Yao');
    const parsed = watchlistEntryInputSchema.parse(values);
    expect(parsed).toMatchObject({ lastname: 'Yao', email: null, until: '31/12/2027' });
  });

  it('refuses a new entry with neither a full name nor an identifier', () => {
    const parsed = watchlistEntryInputSchema.safeParse({ ...entryValues(undefined), reason: 'x' });
    expect(parsed.success).toBe(false);
    // Under the name, in the product's words (not a generic "malformed request").
    const issue = parsed.error!.issues[0]!;
    expect(issue.path).toEqual(['lastname']);
    expect(issue.message).toMatch(/^Indiquez un nom et un prénom/);
    expect((issue as { params?: unknown }).params).toMatchObject({
      key: 'identifierRequired',
      field: 'lastname',
    });
  });
});
