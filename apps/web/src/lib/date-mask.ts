/**
 * A DD/MM/YYYY field as people type it: a phone's number pad has no '/', so the
 * slashes come by themselves ('24112026' → '24/11/2026'); a day or a month closed
 * by a typed slash gets its zero ('1/2/2026' → '01/02/2026'). A slash is added
 * only before a following digit, so deleting one never brings it back.
 */
export function maskDate(typed: string): string {
  const parts = typed.replace(/[^\d/]/g, '').split('/');
  let digits = '';
  parts.forEach((part, index) => {
    const closed = index < parts.length - 1;
    const atSegmentStart = digits.length === 0 || digits.length === 2;
    digits += closed && atSegmentStart && part.length === 1 ? `0${part}` : part;
  });
  digits = digits.slice(0, 8);
  return [digits.slice(0, 2), digits.slice(2, 4), digits.slice(4)].filter(Boolean).join('/');
}
