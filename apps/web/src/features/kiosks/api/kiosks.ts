/**
 * `/api/company/{id}/kiosks` (issue 29): a company's kiosks, created (with their first
 * pairing code), edited, given a new code, revoked. A revoked kiosk stays listed.
 */
import { useQuery } from '@tanstack/react-query';
import type { Kiosk, KioskInput, KioskPairing } from '@sesame/shared';
import { api } from '../../../lib/api-client';

export interface KioskAnswer {
  message?: string;
  data: Kiosk;
}

/** A creation or a new code: the kiosk, and its code shown once. */
export interface KioskPairingAnswer extends KioskAnswer {
  pairing: KioskPairing;
}

const base = (company: string) => `/company/${encodeURIComponent(company)}/kiosks`;
const one = (company: string, kioskId: string) => `${base(company)}/${encodeURIComponent(kioskId)}`;

export const kiosksQueryKey = (company: string) => ['kiosks', company.toLowerCase()] as const;

export const fetchKiosks = (company: string) =>
  api.get<{ data: Kiosk[] }>(base(company)).then((answer) => answer.data);

export function useKiosks(company: string) {
  return useQuery({
    queryKey: kiosksQueryKey(company),
    queryFn: () => fetchKiosks(company),
    enabled: !!company,
    // The last contact moves while the page is open.
    refetchInterval: 60_000,
  });
}

export const createKiosk = (company: string, body: KioskInput) =>
  api.post<KioskPairingAnswer>(base(company), body);

export const updateKiosk = (company: string, kioskId: string, body: Partial<KioskInput>) =>
  api.put<KioskAnswer>(one(company, kioskId), body);

export const newPairingCode = (company: string, kioskId: string) =>
  api.post<KioskPairingAnswer>(`${one(company, kioskId)}/pairing`);

export const revokeKiosk = (company: string, kioskId: string) =>
  api.delete<KioskAnswer>(one(company, kioskId));
