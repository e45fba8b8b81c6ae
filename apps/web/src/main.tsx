import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/dates/styles.css';
import './app/a11y.css';
import './lib/i18n';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { installProductMessages } from '@sesame/shared';
import { RouterProvider } from 'react-router';
import { Providers } from './app/providers';
import { router } from './app/router';

// The shared schemas speak the product's words on this side too, never zod's defaults.
installProductMessages();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);
