/** Spec §2 Member list: a person is named by last name, then first name. */
export function displayName(person: { firstname: string | null; lastname: string | null }): string {
  return [person.lastname, person.firstname].filter((part) => part && part.trim()).join(' ');
}

/** A calendar day 'YYYY-MM-DD' as a long date: '31 décembre 2030'. */
export function formatDay(day: string | null | undefined, language: string): string {
  if (!day) return '';
  const date = new Date(`${day}T12:00:00Z`);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(language.startsWith('en') ? 'en-GB' : 'fr-FR', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(date);
}
