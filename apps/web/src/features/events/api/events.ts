/**
 * The events feature's calls (spec §7 evenement calls, plus the public event-by-slug
 * call and the registration through the share link).
 */
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Event,
  EventAttendanceEntry,
  EventCreateInput,
  EventRegistered,
  PublicEvent,
} from '@sesame/shared';
import { api, toQuery, type Paginated } from '../../../lib/api-client';

export interface PageParams {
  page: number;
  per_page: number;
  q?: string;
}

/** Spec §6 event list: admin and ROLE_SESAME load every event, others their company's. */
export function getEvents(company: string | null, params: PageParams) {
  const path = company ? `/evenement/list/${encodeURIComponent(company)}` : '/evenement/list';
  return api.get<Paginated<Event>>(`${path}${toQuery({ ...params })}`);
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
  params: PageParams & { company?: string },
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
