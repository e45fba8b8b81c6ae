/**
 * What changed on the 'Sur place' list between two answers for the same search and page
 * (issue 18): who arrived and who left, for the screen's live region, so a screen-reader user
 * hears the list change as a sighted guard sees it.
 *
 * A card also comes and goes when a mistaken check is undone (issue 27): an arrival undone
 * takes the card away, a departure undone brings it back. Neither is a departure or an
 * arrival, and saying so would send a guard after someone who never came or never left. The
 * live feed says which it was (`op` 'arrival_undone' / 'departure_undone', migration 0024);
 * the screen keeps that in `UndoNotes` until the list shows the change.
 */
import type { LiveEvent } from '@sesame/shared';

export interface PresentPerson {
  check_id: string;
  person_id: string;
  firstname: string;
  lastname: string;
}

export interface PresenceChanges {
  arrived: string[];
  left: string[];
  /** Cards gone because their arrival was undone: the person never came. */
  arrivalUndone: string[];
  /** Cards back because their departure was undone: the person never left. */
  departureUndone: string[];
  /**
   * The people with a note whose card came or went: the list has shown what the note was
   * about (or something newer), so the screen forgets those notes.
   */
  settled: string[];
}

export type UndoKind = 'arrival_undone' | 'departure_undone';

/** The undos the live feed announced, by person, that the list has not shown yet. */
export type UndoNotes = Map<string, UndoKind>;

/**
 * Keeps what a presence event says about its person: an undo is noted; a new arrival or
 * departure of the same person replaces it (that change is then a real one).
 */
export function noteLiveEvent(
  notes: UndoNotes,
  event: Pick<Extract<LiveEvent, { type: 'presence' }>, 'person_id' | 'op'>,
): void {
  if (event.op === 'arrival_undone' || event.op === 'departure_undone') {
    notes.set(event.person_id, event.op);
  } else {
    notes.delete(event.person_id);
  }
}

const fullName = (person: PresentPerson) => `${person.firstname} ${person.lastname}`.trim();

export function presenceChanges(
  before: readonly PresentPerson[],
  after: readonly PresentPerson[],
  notes: ReadonlyMap<string, UndoKind> = new Map(),
): PresenceChanges {
  const had = new Set(before.map((person) => person.check_id));
  const has = new Set(after.map((person) => person.check_id));
  const changes: PresenceChanges = {
    arrived: [],
    left: [],
    arrivalUndone: [],
    departureUndone: [],
    settled: [],
  };
  for (const person of after.filter((p) => !had.has(p.check_id))) {
    const note = notes.get(person.person_id);
    (note === 'departure_undone' ? changes.departureUndone : changes.arrived).push(
      fullName(person),
    );
    if (note) changes.settled.push(person.person_id);
  }
  for (const person of before.filter((p) => !has.has(p.check_id))) {
    const note = notes.get(person.person_id);
    (note === 'arrival_undone' ? changes.arrivalUndone : changes.left).push(fullName(person));
    if (note) changes.settled.push(person.person_id);
  }
  return changes;
}
