/**
 * Starts the real, built Sésame (the compiled server, apps/server/dist, and the web
 * app) on a free port with a fresh data folder and a seeded admin, as `npm start` would.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../apps/server/test/helpers/smtp';

export { freePort };

export const ROOT = path.resolve(import.meta.dirname, '../..');
/** The compiled server that `npm start` runs (`npm run build` writes it). */
export const SERVER_MAIN = path.join(ROOT, 'apps/server/dist/main.js');
export const ADMIN_EMAIL = 'admin@sesame.test';
export const ADMIN_PASSWORD = 'Admin-Password-123';

export interface RunningServer {
  url: string;
  pid: number;
  dataDir: string;
  adminEmail: string;
  adminPassword: string;
  /** Everything the server printed, for assertions and failure reports. */
  output: () => string;
  stop: () => Promise<void>;
}

export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const webDist = path.join(ROOT, 'apps/web/dist');
  if (!existsSync(path.join(webDist, 'index.html')) || !existsSync(SERVER_MAIN)) {
    throw new Error('Sésame is not built: run `npm run build` first (npm test does).');
  }
  const port = await freePort();
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'sesame-e2e-'));
  const url = `http://127.0.0.1:${port}`;
  let output = '';
  const child: ChildProcess = spawn(process.execPath, ['--enable-source-maps', SERVER_MAIN], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      WEB_DIST: webDist,
      ADMIN_EMAIL,
      ADMIN_PASSWORD,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${output}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start within 60 s:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }

  return {
    url,
    pid: child.pid!,
    dataDir,
    adminEmail: ADMIN_EMAIL,
    adminPassword: ADMIN_PASSWORD,
    output: () => output,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** Signs in through the API and returns the token (for set-up calls, not for the journey itself). */
export async function apiToken(
  server: RunningServer,
  email = server.adminEmail,
  password = server.adminPassword,
) {
  const res = await fetch(`${server.url}/api/login_check`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: email, password }),
  });
  if (!res.ok) throw new Error(`login failed: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

export interface StaffMember {
  name: string;
  firstname: string;
  email: string;
  password: string;
  title: string;
  role: string;
}

/** Creates a staff member of the demo company through the API, as the admin (set-up only). */
export async function createDemoStaff(server: RunningServer, person: StaffMember): Promise<void> {
  const token = await apiToken(server);
  const company = (await (await fetch(`${server.url}/api/company/demo`)).json()) as {
    data: { id: string };
  };
  const res = await fetch(`${server.url}/api/user/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ ...person, contact: '0102030405', company_id: company.data.id }),
  });
  if (res.status !== 200 && res.status !== 201) {
    throw new Error(`could not create ${person.email}: ${res.status} ${await res.text()}`);
  }
}
