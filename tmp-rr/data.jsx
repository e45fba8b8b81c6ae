import { createBrowserRouter, RouterProvider, useMatches, useRouteError, isRouteErrorResponse, Link, useNavigate, useParams, useLocation, Navigate, Outlet, useSearchParams } from 'react-router';
import { createRoot } from 'react-dom/client';
function App() { const m = useMatches(); const e = useRouteError(); const n = useNavigate(); const p = useParams(); const l = useLocation(); const [s] = useSearchParams(); console.log(m, isRouteErrorResponse(e), n, p, l, s); return <><Outlet /><Link to="/">x</Link><Navigate to="/" /></>; }
const router = createBrowserRouter([{ path: '/', element: <App />, lazy: async () => ({}) }]);
createRoot(document.body).render(<RouterProvider router={router} />);
