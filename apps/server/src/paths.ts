import path from 'node:path';

/**
 * The server package's folder (apps/server), whether this runs as source
 * (src/paths.ts under tsx) or bundled (dist/main.js under node): both sit one
 * level below it. Files the server reads beside its code (the migrations, the
 * built web app) are found from here.
 */
export const SERVER_ROOT = path.resolve(import.meta.dirname, '..');

/** The project's folder, the one holding the root package.json and this README. */
export const PROJECT_ROOT = path.resolve(SERVER_ROOT, '../..');

/** Where the data lives when DATA_DIR is unset: `data` in the project's folder. */
export const DEFAULT_DATA_DIR = path.join(PROJECT_ROOT, 'data');

/**
 * The folder a person typed the command in. npm runs every script in its package's
 * folder (`npm start -w …` in apps/server) but sets INIT_CWD to where it was typed;
 * without npm, it is this process's own working directory.
 */
export function invocationDir(env: NodeJS.ProcessEnv = process.env): string {
  const typedIn = env.INIT_CWD?.trim();
  return typedIn && path.isAbsolute(typedIn) ? typedIn : process.cwd();
}

/**
 * A path setting (DATA_DIR, WEB_DIST) as an absolute path: a relative one is relative
 * to the folder the command was typed in, as it would be for any other command.
 */
export function resolvePathSetting(value: string, env: NodeJS.ProcessEnv = process.env): string {
  return path.resolve(invocationDir(env), value);
}
