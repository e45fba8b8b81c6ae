/** The browser's router over the route table (app/routes: every route of spec §2). */
import { createBrowserRouter } from 'react-router';
import { routes } from './routes';

export const router = createBrowserRouter(routes);
