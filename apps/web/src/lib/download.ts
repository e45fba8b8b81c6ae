/**
 * Downloads a file the server answers to a signed-in call (a CSV, a ZIP): fetched
 * with the bearer token as a blob, then handed to the browser under the server's name.
 */
import { ApiError } from './api-client';
import { dispositionFileName } from './disposition';
import { languageHeader } from './language';
import { saveBlob } from './save-blob';
import { getToken } from './session';

export async function downloadFile(path: string, fallbackName: string): Promise<void> {
  // The CSV's headers come back in the interface's language.
  const headers: Record<string, string> = { ...languageHeader() };
  const token = getToken();
  if (token) headers.authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(`/api${path}`, { headers, credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, undefined);
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { message?: unknown };
    throw new ApiError(
      response.status,
      typeof body.message === 'string' ? body.message : undefined,
    );
  }
  const blob = await response.blob();
  saveBlob(blob, dispositionFileName(response.headers.get('content-disposition')) ?? fallbackName);
}
