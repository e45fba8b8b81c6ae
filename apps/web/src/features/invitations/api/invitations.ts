/**
 * `/api/invitations` (issue 30): invite (typed in, or a CSV checked then sent), the host's
 * invited visitors ("Mes visiteurs"), a schedule changed, an invitation cancelled (whole, one
 * day, one visitor).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type {
  InvitationCancel,
  InvitationCreate,
  InvitationCreated,
  InvitationCsvError,
  InvitationSchedule,
  InvitationsQuery,
  InvitationsScope,
  InvitedVisit,
  InvitedVisitor,
} from '@sesame/shared';
import { ApiError, api, toQuery, type Paginated } from '../../../lib/api-client';
import { languageHeader } from '../../../lib/language';
import { getToken } from '../../../lib/session';

export type InvitationAnswer = InvitationCreated & { message: string };

/** A list's query, and whose visitors it shows (`/mine`, or `/company` for who reads its requests). */
export type InvitedVisitsQuery = Partial<InvitationsQuery> & { scope: InvitationsScope };

export const invitationKeys = {
  all: ['invitations'] as const,
  mine: (query: InvitedVisitsQuery) => ['invitations', 'mine', query] as const,
};

export function useInvitedVisits({ scope, ...query }: InvitedVisitsQuery) {
  return useQuery({
    queryKey: invitationKeys.mine({ scope, ...query }),
    queryFn: () => api.get<Paginated<InvitedVisit>>(`/invitations/${scope}${toQuery(query)}`),
    placeholderData: keepPreviousData,
  });
}

export const createInvitation = (body: InvitationCreate) =>
  api.post<InvitationAnswer>('/invitations', body);

export const updateInvitation = (id: string, body: InvitationSchedule) =>
  api.put<{ message: string }>(`/invitations/${encodeURIComponent(id)}`, body);

export const cancelInvitation = (id: string, body: InvitationCancel) =>
  api.post<{ message: string }>(`/invitations/${encodeURIComponent(id)}/cancel`, body);

/** A CSV refused line by line: nothing was created. */
export class CsvRefused extends Error {
  constructor(
    message: string,
    public readonly lines: InvitationCsvError[],
  ) {
    super(message);
  }
}

/** The check of a CSV (`dry_run`): the visitors it holds. */
export interface ImportPreview {
  visitors: InvitedVisitor[];
  count: number;
}

/**
 * POST `/api/invitations/import`: the schedule's fields and the file. A 400 with `lines` is a
 * `CsvRefused`; any other failure an `ApiError` (its `errors` under the schedule's fields).
 * The API client keeps no more than `message` and `errors` of a refusal, hence this call.
 */
export function importInvitations(body: FormData, dryRun: true): Promise<ImportPreview>;
export function importInvitations(body: FormData, dryRun: false): Promise<InvitationAnswer>;
export async function importInvitations(
  body: FormData,
  dryRun: boolean,
): Promise<ImportPreview | InvitationAnswer> {
  const headers: Record<string, string> = { accept: 'application/json', ...languageHeader() };
  const token = getToken();
  if (token) headers.authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(`/api/invitations/import${dryRun ? '?dry_run=true' : ''}`, {
      method: 'POST',
      headers,
      body,
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, undefined);
  }
  const answer = (await response.json().catch(() => ({}))) as {
    message?: unknown;
    errors?: Record<string, string>;
    lines?: InvitationCsvError[];
  };
  if (response.ok) return answer as unknown as ImportPreview | InvitationAnswer;
  const message = typeof answer.message === 'string' ? answer.message : undefined;
  if (response.status === 400 && Array.isArray(answer.lines) && answer.lines.length > 0) {
    throw new CsvRefused(message ?? '', answer.lines);
  }
  throw new ApiError(response.status, message, answer.errors);
}
