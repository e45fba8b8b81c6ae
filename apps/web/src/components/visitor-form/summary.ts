/**
 * What RequestQrCode (`/{domain}/qr-code/{id}`) shows after a visitor was created:
 * the spec keeps the visitor's data in session storage (spec §2 RequestQrCode).
 * JoinEvent stores the event's details here before going to that screen.
 */
export interface VisitorSummary {
  firstname: string;
  lastname: string;
  /** The event's name (empty for a meeting). */
  title: string;
  /** The event's place, or the company for a meeting. */
  location: string;
  address: string;
  city: string;
  state: string;
  country: string;
  zipcode: string;
  /** DD/MM/YYYY */
  date_event: string;
  /** HH:MM */
  time_event: string;
  /** The site of the visit (issue 28), when the company has several. */
  site?: string;
}

export const VISITOR_SUMMARY_KEY = 'visitor';

export function storeVisitorSummary(summary: VisitorSummary): void {
  try {
    sessionStorage.setItem(VISITOR_SUMMARY_KEY, JSON.stringify(summary));
  } catch {
    // Private mode or full storage: the screen then shows its empty state.
  }
}

export function readVisitorSummary(): VisitorSummary | null {
  try {
    const raw = sessionStorage.getItem(VISITOR_SUMMARY_KEY);
    return raw ? (JSON.parse(raw) as VisitorSummary) : null;
  } catch {
    return null;
  }
}
