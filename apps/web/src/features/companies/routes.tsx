import type { RouteObject } from 'react-router';
import { lazyPage } from '../../components/lazy-page';
import { RequireAuth } from '../../components/RequireAuth';

export const companyRoutes: RouteObject[] = [
  // Public: the creation form shows its submit button only to a signed-in user (spec §2),
  // and the company QR page is a poster meant for the front door (ARCHITECTURE §6).
  { path: ':domain/create-company', lazy: lazyPage(() => import('./pages/CreateCompanyPage')) },
  {
    path: ':domain/show-company-qrcode/:slug',
    lazy: lazyPage(() => import('./pages/CompanyQrPage')),
  },
  {
    element: <RequireAuth />,
    children: [
      {
        path: ':domain/edit-company/:company_edit',
        lazy: lazyPage(() => import('./pages/EditCompanyPage')),
      },
      { path: ':domain/company-list', lazy: lazyPage(() => import('./pages/CompanyListPage')) },
      { path: 'company/:slug', lazy: lazyPage(() => import('./pages/EmployeeListPage')) },
    ],
  },
];
