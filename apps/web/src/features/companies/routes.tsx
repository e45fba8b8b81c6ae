import type { RouteObject } from 'react-router';
import { lazyPage } from '../../components/lazy-page';
import { RequireAuth } from '../../components/RequireAuth';

export const companyRoutes: RouteObject[] = [
  // Public: the creation form shows its submit button only to a signed-in user (spec §2),
  // and the company QR page is a poster meant for the front door (ARCHITECTURE §6).
  {
    path: ':domain/create-company',
    handle: { title: 'companies:create.title' },
    element: lazyPage(() => import('./pages/CreateCompanyPage')),
  },
  {
    path: ':domain/show-company-qrcode/:slug',
    handle: { title: 'companies:qr.title' },
    element: lazyPage(() => import('./pages/CompanyQrPage')),
  },
  {
    element: <RequireAuth />,
    children: [
      {
        path: ':domain/edit-company/:company_edit',
        handle: { title: 'companies:edit.title' },
        element: lazyPage(() => import('./pages/EditCompanyPage')),
      },
      {
        path: ':domain/company-list',
        handle: { title: 'companies:list.title' },
        element: lazyPage(() => import('./pages/CompanyListPage')),
      },
      {
        path: 'company/:slug',
        handle: { title: 'companies:employees.pageTitle' },
        element: lazyPage(() => import('./pages/EmployeeListPage')),
      },
    ],
  },
];
