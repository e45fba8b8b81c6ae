import { describe, expect, it } from 'vitest';
import { presenceShown } from '../src/features/checkins/api/presence-shown';

describe('what a thank-you page says (issue 27)', () => {
  it('welcomes someone whose latest check is open, whatever the address', () => {
    expect(presenceShown({ check_in_time: '2026-11-27T08:00:00Z', check_out_time: null })).toEqual({
      state: 'inside',
      at: '2026-11-27T08:00:00Z',
    });
  });

  it('says goodbye only once the latest check is closed', () => {
    expect(
      presenceShown({
        check_in_time: '2026-11-27T08:00:00Z',
        check_out_time: '2026-11-27T09:30:00Z',
      }),
    ).toEqual({ state: 'left', at: '2026-11-27T09:30:00Z' });
  });

  it('is neutral for a code with no visit yet', () => {
    expect(presenceShown(undefined)).toEqual({ state: 'none' });
  });
});
