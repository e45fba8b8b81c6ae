// Only the CSS of the components the public pages use; the others' with their screens.
import './app/mantine-styles';
import './app/a11y.css';
import { i18nReady } from './lib/i18n';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { Providers } from './app/providers';
import { AppRoutes } from './app/router';

// The first screen renders with its words (English ones may come from the network first).
void i18nReady.finally(() =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <Providers>
        {/* A change of address renders at once, not as a transition: signing out clears the
            session and goes to the login in one render, so the screen left behind never
            sees the session gone (the Menu would send an anonymous visitor elsewhere). */}
        <BrowserRouter useTransitions={false}>
          <AppRoutes />
        </BrowserRouter>
      </Providers>
    </StrictMode>,
  ),
);
