/**
 * The one HTTP client of the web app. It sends the bearer token and the
 * interface's language (the server answers in it), parses JSON
 * and throws a typed ApiError; it has no UI side effects (toasts and redirects
 * happen once, in the query cache and the screens).
 */
import { languageHeader } from './language';
import { getToken } from './session';

export class ApiError extends Error {
  /**
   * The server's own `message` (in the interface's language), to show as it is; undefined when
   * the server sent none (unreachable, or a body that was not ours).
   */
  public readonly serverMessage: string | undefined;

  constructor(
    /** HTTP status; 0 when the server could not be reached. */
    public readonly status: number,
    serverMessage: string | undefined,
    /** The server's message for each field it refused. */
    public readonly errors?: Record<string, string>,
  ) {
    super(serverMessage ?? (status === 0 ? 'network' : `HTTP ${status}`));
    this.serverMessage = serverMessage;
  }
}

/** What the server said about a failed call, if it said anything. */
export function serverMessageOf(error: unknown): string | undefined {
  return error instanceof ApiError ? error.serverMessage : undefined;
}

type Body = FormData | object | undefined;

async function request<T>(
  method: string,
  path: string,
  body?: Body,
  extraHeaders: Record<string, string> = {},
): Promise<T> {
  const headers: Record<string, string> = {
    accept: 'application/json',
    ...languageHeader(),
    ...extraHeaders,
  };
  const token = getToken();
  if (token) headers.authorization = `Bearer ${token}`;
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  let response: Response;
  try {
    response = await fetch(`/api${path}`, {
      method,
      headers,
      body: payload,
      credentials: 'same-origin',
    });
  } catch {
    throw new ApiError(0, undefined);
  }
  const text = await response.text();
  let data: unknown = undefined;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = text;
    }
  }
  if (!response.ok) {
    const errorBody = (data ?? {}) as { message?: unknown; errors?: Record<string, string> };
    const message = typeof errorBody.message === 'string' ? errorBody.message : undefined;
    throw new ApiError(response.status, message, errorBody.errors);
  }
  return data as T;
}

export const api = {
  get: <T>(path: string, headers?: Record<string, string>) =>
    request<T>('GET', path, undefined, headers),
  post: <T>(path: string, body?: Body, headers?: Record<string, string>) =>
    request<T>('POST', path, body, headers),
  put: <T>(path: string, body?: Body) => request<T>('PUT', path, body),
  patch: <T>(path: string, body?: Body) => request<T>('PATCH', path, body),
  delete: <T>(path: string) => request<T>('DELETE', path),
};

/** `{ page: 2, q: 'x', empty: undefined }` → `?page=2&q=x`. */
export function toQuery(params: Record<string, string | number | undefined | null>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

export interface Paginated<T> {
  data: T[];
  meta: { page: number; per_page: number; total: number };
}
