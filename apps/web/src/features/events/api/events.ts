/**
 * The events feature's calls (spec §7 evenement calls, plus the public event-by-slug
 * call, the registration through the share link, and the event page's: the event by
 * its link's segments, its participants paged, closing it, the CSV export).
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Event,
  EventAttendanceEntry,
  EventCreateInput,
  EventRegistered,
  PublicEvent,
  RequestRow,
} from '@sesame/shared';
import { api, toQuery, type Paginated } from '../../../lib/api-client';
import { downloadFile } from '../../../lib/download';

export interface PageParams {
  page: number;
  per_page: number;
  q?: string;
}

/**
 * Spec §6 event list: admin and ROLE_SESAME load every event, others their company's;
 * `site` (issue 28: the header's site) one site's events.
 */
export function getEvents(company: string | null, params: PageParams, site?: string) {
  const path = company ? `/evenement/list/${encodeURIComponent(company)}` : '/evenement/list';
  return api.get<Paginated<Event>>(`${path}${toQuery({ ...params, site })}`);
}

export function createEvent(body: EventCreateInput) {
  return api.post<{ message: string; data: Event }>('/evenement/create', body);
}

export function useCreateEvent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createEvent,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['events'] });
    },
  });
}

/** The event page: an event by its share link's two segments (staff who list events). */
export const eventQueryOptions = (company: string, slug: string) =>
  queryOptions({
    queryKey: ['events', 'show', company.toLowerCase(), slug.toLowerCase()],
    queryFn: () =>
      api.get<{ message: string; data: Event }>(
        `/evenement/show/${encodeURIComponent(company)}/${encodeURIComponent(slug)}`,
      ),
    retry: false,
  });

export function useEvent(company: string, slug: string) {
  return useQuery(eventQueryOptions(company, slug));
}

/** Stops registrations (those who may delete events); closing twice changes nothing. */
export function closeEvent(id: string) {
  return api.put<{ message: string; data: Event }>(`/evenement/close/${id}`);
}

export function useCloseEvent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: closeEvent,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ['events'] });
    },
  });
}

/** One page of an event's participants ('Liste Participants'), paged like every list. */
export function getParticipants(event: Pick<Event, 'id' | 'company'>, params: PageParams) {
  return api.get<Paginated<RequestRow>>(
    `/requests/list/${encodeURIComponent(event.company.slug)}${toQuery({ ...params, event: event.id })}`,
  );
}

/** The participants as CSV for French Excel, under the server's file name. */
export function exportParticipants(event: Pick<Event, 'id' | 'slug'>) {
  return downloadFile(`/evenement/export/${event.id}`, `participants-${event.slug}.csv`);
}

/** A participant deleted with their registration (admin only, as in the request list). */
export function deleteParticipant(visitorId: string) {
  return api.delete<{ message: string }>(`/visitor/delete/${visitorId}`);
}

export function deleteEvent(id: string) {
  return api.delete<{ message: string }>(`/evenement/delete/${id}`);
}

export const publicEventQueryOptions = (company: string, slug: string) =>
  queryOptions({
    queryKey: ['events', 'public', company.toLowerCase(), slug.toLowerCase()],
    queryFn: () =>
      api.get<{ message: string; data: PublicEvent }>(
        `/evenement/slug/${encodeURIComponent(company)}/${encodeURIComponent(slug)}`,
      ),
    retry: false,
    staleTime: 30_000,
  });

export function usePublicEvent(company: string, slug: string) {
  return useQuery(publicEventQueryOptions(company, slug));
}

export function registerForEvent(company: string, slug: string, formData: FormData) {
  return api.post<EventRegistered>(
    `/evenement/${encodeURIComponent(company)}/${encodeURIComponent(slug)}/register`,
    formData,
  );
}

/** One participant of 'Participer à un évènement', with their event. */
export interface AttendanceRow {
  visitor: EventAttendanceEntry['visitors'][number];
  event: Omit<EventAttendanceEntry, 'visitors'>;
}

/** The server groups a page of participants under their events; the table shows one row each. */
export async function getAttendance(
  params: PageParams & { company?: string; site?: string },
): Promise<Paginated<AttendanceRow>> {
  const page = await api.get<Paginated<EventAttendanceEntry>>(
    `/eventattendencelist${toQuery({ ...params })}`,
  );
  return {
    meta: page.meta,
    data: page.data.flatMap(({ visitors, ...event }) =>
      visitors.map((visitor) => ({ visitor, event })),
    ),
  };
}
