import { BrowserRouter, useRoutes, Link, useNavigate, useParams, useLocation, Navigate, matchRoutes, Outlet, useSearchParams } from 'react-router';
import { createRoot } from 'react-dom/client';
const routes = [{ path: '/', element: <Outlet /> }];
function App() { const el = useRoutes(routes); const n = useNavigate(); const p = useParams(); const l = useLocation(); const [s] = useSearchParams(); console.log(matchRoutes(routes, l), n, p, s); return <>{el}<Link to="/">x</Link><Navigate to="/" /></>; }
createRoot(document.body).render(<BrowserRouter><App /></BrowserRouter>);
