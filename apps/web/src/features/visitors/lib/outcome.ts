/**
 * Spec §8 "Visitor and request creation": the text of each answer status.
 */
import type { TFunction } from '../../../lib/translator';
import { ApiError } from '../../../lib/api-client';

/** 400/401/403/404/500 → the spec's sentence; any other status → 'Code : {n}'. */
export function statusText(t: TFunction, status: number): string {
  switch (status) {
    case 400:
    case 401:
    case 403:
    case 404:
    case 500:
      return t(`visitors:outcome.status${status}`);
    default:
      return t('visitors:outcome.code', { code: status });
  }
}

/**
 * A failed call as the form shows it: the status sentence as the title and
 * 'Erreur: {server message}' below (spec §8 form exceptions).
 */
export function failureText(t: TFunction, error: unknown): { title: string; message: string } {
  if (error instanceof ApiError && error.status > 0) {
    return {
      title: statusText(t, error.status),
      message: t('visitors:outcome.formError', {
        message: error.serverMessage ?? t('visitors:outcome.unknownError'),
      }),
    };
  }
  return {
    title: t('visitors:outcome.unexpected'),
    message: t('visitors:outcome.formError', { message: t('visitors:outcome.unknownError') }),
  };
}
