import type { RouteObject } from 'react-router';
import { lazyPage } from '../../components/lazy-page';

const requestMeeting = lazyPage(() => import('./pages/RequestMeetingPage'));

export const visitorRoutes: RouteObject[] = [
  {
    path: ':domain/request-meeting',
    handle: { title: 'home:requestMeeting' },
    element: requestMeeting,
  },
  {
    path: ':domain/request-meeting/:id',
    handle: { title: 'visitors:waiting.title' },
    element: requestMeeting,
  },
  {
    path: ':domain/meeting',
    handle: { title: 'visitors:form.title' },
    element: lazyPage(() => import('./pages/CreateVisitorPage')),
  },
  {
    path: ':domain/waiting-validation/:id',
    handle: { title: 'visitors:waiting.staffTitle' },
    element: lazyPage(() => import('./pages/WaitingValidationPage')),
  },
  {
    path: ':domain/qr-code/:id',
    handle: { title: 'visitors:summary.pageTitle' },
    element: lazyPage(() => import('./pages/RequestQrCodePage')),
  },
  // The host's confirmation page, from the Valider / Annuler buttons of their mail (issue 15).
  {
    path: 'company/:domain/host-decision',
    handle: { title: 'hostLoop:decision.pageTitle' },
    element: lazyPage(() => import('./pages/HostDecisionPage')),
  },
  {
    path: 'company/:domain/meeting-request-qr/:uidn',
    handle: { title: 'visitors:card.pageTitle' },
    element: lazyPage(() => import('./pages/MeetingQrCardPage')),
  },
];
