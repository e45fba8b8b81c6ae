/** The 'Sur place' live region's news: who arrived, who left, between two answers. */
import { describe, expect, it } from 'vitest';
import { presenceChanges } from '../src/features/on-site/lib/presence-changes';

const awa = { check_id: 'c1', firstname: 'Awa', lastname: 'Sanogo' };
const yao = { check_id: 'c2', firstname: 'Yao', lastname: 'Kouadio' };
const mariam = { check_id: 'c3', firstname: 'Mariam', lastname: '' };

describe('presenceChanges', () => {
  it('names who arrived and who left', () => {
    expect(presenceChanges([awa], [yao, awa])).toEqual({ arrived: ['Yao Kouadio'], left: [] });
    expect(presenceChanges([awa, yao], [yao])).toEqual({ arrived: [], left: ['Awa Sanogo'] });
    expect(presenceChanges([awa], [mariam])).toEqual({ arrived: ['Mariam'], left: ['Awa Sanogo'] });
  });

  it('says nothing when the same people are listed, in another order too', () => {
    expect(presenceChanges([awa, yao], [yao, awa])).toEqual({ arrived: [], left: [] });
  });

  it('tells a new arrival of the same person apart by its check', () => {
    const back = { ...awa, check_id: 'c4' };
    expect(presenceChanges([awa], [back])).toEqual({
      arrived: ['Awa Sanogo'],
      left: ['Awa Sanogo'],
    });
  });
});
