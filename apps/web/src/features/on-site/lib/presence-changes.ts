/**
 * What changed on the 'Sur place' list between two answers for the same search and page
 * (issue 18): who arrived and who left, for the screen's live region, so a screen-reader user
 * hears the list change as a sighted guard sees it.
 */
export interface PresentPerson {
  check_id: string;
  firstname: string;
  lastname: string;
}

export interface PresenceChanges {
  arrived: string[];
  left: string[];
}

const fullName = (person: PresentPerson) => `${person.firstname} ${person.lastname}`.trim();

export function presenceChanges(
  before: readonly PresentPerson[],
  after: readonly PresentPerson[],
): PresenceChanges {
  const had = new Set(before.map((person) => person.check_id));
  const has = new Set(after.map((person) => person.check_id));
  return {
    arrived: after.filter((person) => !had.has(person.check_id)).map(fullName),
    left: before.filter((person) => !has.has(person.check_id)).map(fullName),
  };
}
