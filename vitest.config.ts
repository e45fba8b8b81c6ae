import { defineConfig } from 'vitest/config';
import { useTestTempRoot } from './tools/test-temp-root';

useTestTempRoot();

/**
 * Server tests run on the embedded PGlite, and a second time on PostgreSQL
 * when TEST_DATABASE_URL is set (CI sets it).
 */
const serverProject = (name: string, env: Record<string, string>) => ({
  test: {
    name,
    include: ['apps/server/test/**/*.test.ts'],
    environment: 'node',
    env,
    globalSetup: ['apps/server/test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

const postgresUrl = process.env.TEST_DATABASE_URL;
if (!postgresUrl) {
  console.warn(
    'PostgreSQL server tests not run: set TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres to run them too.',
  );
}

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'shared',
          include: ['packages/shared/test/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        // The web app's pure logic (no DOM): scanned links, log ranges, outcomes,
        // the scan queue, the form layer's schema → errors mapping.
        test: {
          name: 'web',
          include: ['apps/web/test/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        // The web's hooks and components (issue 36): rendered with React in happy-dom's
        // document, driven with Testing Library. The setup gives Mantine what happy-dom lacks.
        test: {
          name: 'web:dom',
          include: ['apps/web/test/**/*.dom.test.tsx'],
          environment: 'happy-dom',
          setupFiles: ['apps/web/test/setup/dom.ts'],
        },
      },
      serverProject('server:pglite', { TEST_DB: 'pglite' }),
      ...(postgresUrl ? [serverProject('server:postgres', { TEST_DB: 'postgres' })] : []),
      {
        test: {
          name: 'e2e:chromium',
          include: ['e2e/**/*.e2e.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
