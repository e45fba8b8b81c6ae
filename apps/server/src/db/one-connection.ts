/**
 * One PostgreSQL connection for one piece of work, closed whatever the work does. The
 * migrations' direct connection behind a pooler uses it (client.ts), and so do the tools
 * around the server (benchmarks, the cluster and backup tests), which create, fill and
 * drop databases of their own on the machine's PostgreSQL.
 */
import pg from 'pg';

export async function onConnection<T>(
  config: string | pg.ClientConfig,
  work: (client: pg.Client) => Promise<T>,
): Promise<T> {
  const client = new pg.Client(typeof config === 'string' ? { connectionString: config } : config);
  await client.connect();
  try {
    return await work(client);
  } finally {
    // The work's answer (or its error) is what counts; a connection that will not close
    // cleanly is gone either way.
    await client.end().catch(() => undefined);
  }
}

/** The same server's address for another of its databases. */
export function databaseOn(url: string, name: string): string {
  const address = new URL(url);
  address.pathname = `/${name}`;
  return address.toString();
}
