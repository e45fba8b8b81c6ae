import path from 'node:path';

/**
 * The server package's folder (apps/server), whether this runs as source
 * (src/paths.ts under tsx) or bundled (dist/main.js under node): both sit one
 * level below it. Files the server reads beside its code (the migrations, the
 * built web app) are found from here.
 */
export const SERVER_ROOT = path.resolve(import.meta.dirname, '..');
