import { describe, expect, it } from 'vitest';
import { listSiteOf } from '../src/lib/list-site';

const noumea = { id: 'noumea', timezone: 'Pacific/Noumea' } as never;

describe('what a list takes from the header’s site (issue 28)', () => {
  it('a single-site company sends no ?site= and shows no Site column', () => {
    expect(
      listSiteOf({ siteId: 'noumea', multi: false, current: noumea, isLoading: false }),
    ).toEqual({ site: undefined, showSite: false, zone: 'Pacific/Noumea', isLoading: false });
  });

  it('one site of several: that site, no column', () => {
    expect(
      listSiteOf({ siteId: 'noumea', multi: true, current: noumea, isLoading: false }),
    ).toEqual({ site: 'noumea', showSite: false, zone: 'Pacific/Noumea', isLoading: false });
  });

  it('every site of several: no ?site=, each row says its site', () => {
    expect(
      listSiteOf({ siteId: undefined, multi: true, current: undefined, isLoading: false }),
    ).toEqual({ site: undefined, showSite: true, zone: undefined, isLoading: false });
  });
});
