/**
 * An open event of the demo company, made through the API as the event form makes it:
 * its registration link is a public page (the benchmarks and the accessibility walk open it).
 */
import type { RunningServer } from './server';

/** Thirty days ahead, so it stays open whatever day the run falls on. */
export async function createOpenEvent(
  server: RunningServer,
  staffToken: string,
): Promise<{ slug: string }> {
  const day = new Date(Date.now() + 30 * 86_400_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  const event = await fetch(`${server.url}/api/evenement/create`, {
    method: 'POST',
    headers: { authorization: `Bearer ${staffToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      company_id: 'demo',
      name: 'Forum des partenaires',
      location: 'Salle Ivoire',
      address_name: 'Boulevard Lagunaire',
      city: 'Abidjan',
      country: "Côte d'Ivoire",
      date_event: `${pad(day.getUTCDate())}/${pad(day.getUTCMonth() + 1)}/${day.getUTCFullYear()}`,
      time_event: '10:00',
    }),
  });
  if (event.status !== 201) throw new Error(`event: ${event.status} ${await event.text()}`);
  return { slug: ((await event.json()) as { data: { slug: string } }).data.slug };
}
