/**
 * Spec §1: "When the slug is absent, a fixed short default slug is used." Every page
 * under `/{domain}/...` also answers without it (`/request-meeting`, `/meeting`,
 * `/manual-check`, ...) by going to the same page of a company:
 * - a public page: the default company's;
 * - a staff page (behind the login, or marked `handle: { staff: true }` like the Menu):
 *   the signed-in person's own company; without a session, the login first (it comes
 *   back here, then on to their company). The Menu alone lets an anonymous visitor
 *   through to the default company, where it sends them to the request page (spec §2).
 * The names come from the route table itself, so a new page gets its slugless address too;
 * company slugs may not take them (RESERVED_SLUGS).
 */
import { Center, Loader } from '@mantine/core';
import { useTranslation } from '../lib/i18n';
import { Navigate, useLocation, type RouteObject } from 'react-router';
import { RequireAuth } from '../components/RequireAuth';
import { useAuth } from '../lib/auth';
import { useSettings } from '../lib/company';

export interface SluglessPage {
  /** The first segment after `{domain}`: 'request-meeting', 'manual-check', ... */
  name: string;
  staff: boolean;
  /** Staff pages behind the login guard (the Menu is staff, but not guarded). */
  guarded: boolean;
}

function isStaffHandle(handle: unknown): boolean {
  return typeof handle === 'object' && handle !== null && 'staff' in handle && !!handle.staff;
}

/** Every first segment under `:domain/` in the route tree, and who the page is for. */
export function sluglessPages(routes: RouteObject[], guarded = false): SluglessPage[] {
  const pages = new Map<string, SluglessPage>();
  const walk = (list: RouteObject[], underGuard: boolean) => {
    for (const route of list) {
      const guard =
        underGuard ||
        (typeof route.element === 'object' &&
          route.element !== null &&
          'type' in route.element &&
          route.element.type === RequireAuth);
      const name = /^:domain\/([a-z0-9-]+)/.exec(route.path ?? '')?.[1];
      if (name) {
        const staff = guard || isStaffHandle(route.handle);
        const known = pages.get(name);
        // Of two routes with one name, staff wins: the stricter reading.
        if (!known || (staff && !known.staff)) pages.set(name, { name, staff, guarded: guard });
      }
      if (route.children) walk(route.children, guard);
    }
  };
  walk(routes, guarded);
  return [...pages.values()];
}

function ToCompany({ slug }: { slug: string }) {
  const { pathname, search, hash } = useLocation();
  return <Navigate to={`/${slug}${pathname}${search}${hash}`} replace />;
}

function ToDefaultCompany() {
  const { t } = useTranslation();
  const settings = useSettings();
  const slug = settings.data?.default_company_slug;
  if (!slug)
    return (
      <Center py="xl">
        <Loader aria-label={t('loading')} />
      </Center>
    );
  return <ToCompany slug={slug} />;
}

function ToOwnCompany() {
  const { user } = useAuth();
  return user ? <ToCompany slug={user.company} /> : <ToDefaultCompany />;
}

function ToOwnOrDefaultCompany() {
  const { user, isAuthenticated } = useAuth();
  return isAuthenticated && user ? <ToCompany slug={user.company} /> : <ToDefaultCompany />;
}

export function sluglessRoutes(routes: RouteObject[]): RouteObject[] {
  return sluglessPages(routes).map((page): RouteObject => {
    const path = `${page.name}/*`;
    if (!page.staff) return { path, element: <ToDefaultCompany /> };
    if (!page.guarded) return { path, element: <ToOwnOrDefaultCompany /> };
    // The login guard first: it keeps this slugless address to come back to.
    return { element: <RequireAuth />, children: [{ path, element: <ToOwnCompany /> }] };
  });
}
