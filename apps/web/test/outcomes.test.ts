import { describe, expect, it } from 'vitest';
import type { TFunction } from '../src/lib/translator';
import { scanFailureText } from '../src/features/checkins/lib/messages';
import { failureText, statusText } from '../src/features/visitors/lib/outcome';
import { ApiError } from '../src/lib/api-client';

/** A stand-in for the translator's t: the key, then its values. */
const t = ((key: string, values?: Record<string, unknown>) =>
  values ? `${key} ${JSON.stringify(values)}` : key) as unknown as TFunction;

describe('outcome of a visitor or request call (spec §8)', () => {
  it('words the spec’s statuses and gives the code of any other', () => {
    expect(statusText(t, 403)).toBe('visitors:outcome.status403');
    expect(statusText(t, 409)).toBe('visitors:outcome.code {"code":409}');
  });

  it('shows the server’s own message under the status', () => {
    const failure = failureText(t, new ApiError(409, 'Cette demande est déjà confirmée.'));
    expect(failure).toEqual({
      title: 'visitors:outcome.code {"code":409}',
      message: 'visitors:outcome.formError {"message":"Cette demande est déjà confirmée."}',
    });
  });

  it('says it does not know when the server said nothing or was not reached', () => {
    expect(failureText(t, new ApiError(500, undefined)).message).toBe(
      'visitors:outcome.formError {"message":"visitors:outcome.unknownError"}',
    );
    expect(failureText(t, new ApiError(0, undefined)).title).toBe('visitors:outcome.unexpected');
  });
});

describe('outcome of a scan', () => {
  const tc = t as unknown as TFunction;

  it('shows what the server said', () => {
    expect(scanFailureText(new ApiError(404, 'Code inconnu.'), tc)).toBe('Code inconnu.');
  });

  it('says the request failed when the server was not reached', () => {
    expect(scanFailureText(new ApiError(0, undefined), tc)).toBe('scan.requestFailed');
    expect(scanFailureText('nope', tc)).toBe('scan.requestFailed');
  });
});

describe('ApiError', () => {
  it('carries the server’s message, or none', () => {
    expect(new ApiError(400, 'La requête est mal formée.').serverMessage).toBe(
      'La requête est mal formée.',
    );
    const silent = new ApiError(502, undefined);
    expect(silent.serverMessage).toBeUndefined();
    expect(silent.message).toBe('HTTP 502');
  });
});
