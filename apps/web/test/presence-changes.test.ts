/** The 'Sur place' live region's news: who arrived, who left, between two answers. */
import { describe, expect, it } from 'vitest';
import fr from '../src/locales/fr/onSite.json';
import en from '../src/locales/en/onSite.json';
import {
  noteLiveEvent,
  presenceChanges,
  type UndoNotes,
} from '../src/features/on-site/lib/presence-changes';

const awa = { check_id: 'c1', person_id: 'p1', firstname: 'Awa', lastname: 'Sanogo' };
const yao = { check_id: 'c2', person_id: 'p2', firstname: 'Yao', lastname: 'Kouadio' };
const mariam = { check_id: 'c3', person_id: 'p3', firstname: 'Mariam', lastname: '' };

const nothingUndone = { arrivalUndone: [], departureUndone: [], settled: [] };

describe('presenceChanges', () => {
  it('names who arrived and who left', () => {
    expect(presenceChanges([awa], [yao, awa])).toEqual({
      arrived: ['Yao Kouadio'],
      left: [],
      ...nothingUndone,
    });
    expect(presenceChanges([awa, yao], [yao])).toEqual({
      arrived: [],
      left: ['Awa Sanogo'],
      ...nothingUndone,
    });
    expect(presenceChanges([awa], [mariam])).toEqual({
      arrived: ['Mariam'],
      left: ['Awa Sanogo'],
      ...nothingUndone,
    });
  });

  it('says nothing when the same people are listed, in another order too', () => {
    expect(presenceChanges([awa, yao], [yao, awa])).toEqual({
      arrived: [],
      left: [],
      ...nothingUndone,
    });
  });

  it('tells a new arrival of the same person apart by its check', () => {
    const back = { ...awa, check_id: 'c4' };
    expect(presenceChanges([awa], [back])).toEqual({
      arrived: ['Awa Sanogo'],
      left: ['Awa Sanogo'],
      ...nothingUndone,
    });
  });
});

describe('an undo on the list (issue 27)', () => {
  it("says a card gone by an undone arrival is an arrival undone, never 'Départ'", () => {
    const notes: UndoNotes = new Map();
    noteLiveEvent(notes, { person_id: 'p1', op: 'arrival_undone' });
    expect(presenceChanges([awa, yao], [yao], notes)).toEqual({
      arrived: [],
      left: [],
      arrivalUndone: ['Awa Sanogo'],
      departureUndone: [],
      settled: ['p1'],
    });
  });

  it("says a card back by an undone departure is a departure undone, never 'Arrivée'", () => {
    const notes: UndoNotes = new Map();
    noteLiveEvent(notes, { person_id: 'p2', op: 'departure_undone' });
    expect(presenceChanges([awa], [yao, awa], notes)).toEqual({
      arrived: [],
      left: [],
      arrivalUndone: [],
      departureUndone: ['Yao Kouadio'],
      settled: ['p2'],
    });
  });

  it('keeps real arrivals and departures of others as they are, beside an undo', () => {
    const notes: UndoNotes = new Map([['p1', 'arrival_undone']]);
    expect(presenceChanges([awa, yao], [mariam], notes)).toMatchObject({
      arrived: ['Mariam'],
      left: ['Yao Kouadio'],
      arrivalUndone: ['Awa Sanogo'],
    });
  });

  it('forgets an undo once the same person arrives or leaves for real', () => {
    const notes: UndoNotes = new Map();
    noteLiveEvent(notes, { person_id: 'p1', op: 'arrival_undone' });
    noteLiveEvent(notes, { person_id: 'p1', op: 'in' });
    expect(notes.size).toBe(0);
    noteLiveEvent(notes, { person_id: 'p1', op: 'departure_undone' });
    noteLiveEvent(notes, { person_id: 'p1', op: 'out' });
    expect(presenceChanges([awa], [], notes)).toMatchObject({
      left: ['Awa Sanogo'],
      arrivalUndone: [],
    });
  });

  it('a card that goes is a departure when the note was of a departure undone, and the note is settled', () => {
    // A departure undone explains a card that comes back, not one that goes.
    const notes: UndoNotes = new Map([['p1', 'departure_undone']]);
    expect(presenceChanges([awa], [], notes)).toMatchObject({
      left: ['Awa Sanogo'],
      arrivalUndone: [],
      settled: ['p1'],
    });
  });

  it('leaves the notes of people whose card did not change for a later answer', () => {
    const notes: UndoNotes = new Map([['p3', 'arrival_undone']]);
    expect(presenceChanges([awa], [awa, yao], notes).settled).toEqual([]);
  });

  it('has its own words in both languages, not the departure’s', () => {
    expect(fr.announce.arrivalUndone).toBe('Arrivée annulée : {{names}}.');
    expect(fr.announce.departureUndone).toBe('Départ annulé : {{names}}.');
    expect(en.announce.arrivalUndone).toBe('Arrival undone: {{names}}.');
    expect(en.announce.departureUndone).toBe('Departure undone: {{names}}.');
  });
});
