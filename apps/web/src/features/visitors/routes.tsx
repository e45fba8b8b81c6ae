import type { RouteObject } from 'react-router';
import { lazyPage } from '../../components/lazy-page';

const requestMeeting = lazyPage(() => import('./pages/RequestMeetingPage'));

export const visitorRoutes: RouteObject[] = [
  { path: ':domain/request-meeting', lazy: requestMeeting },
  { path: ':domain/request-meeting/:id', lazy: requestMeeting },
  { path: ':domain/meeting', lazy: lazyPage(() => import('./pages/CreateVisitorPage')) },
  {
    path: ':domain/waiting-validation/:id',
    lazy: lazyPage(() => import('./pages/WaitingValidationPage')),
  },
  { path: ':domain/qr-code/:id', lazy: lazyPage(() => import('./pages/RequestQrCodePage')) },
  // The host's confirmation page, from the Valider / Annuler buttons of their mail (issue 15).
  {
    path: 'company/:domain/host-decision',
    lazy: lazyPage(() => import('./pages/HostDecisionPage')),
  },
  {
    path: 'company/:domain/meeting-request-qr/:uidn',
    lazy: lazyPage(() => import('./pages/MeetingQrCardPage')),
  },
];
