/**
 * Work the server does beside answering requests (the mail outbox worker).
 * Each job registers here; main.ts starts them after listen and stops them on SIGTERM.
 */
import type { FastifyInstance } from 'fastify';
import { mailWorkerJob } from './mail/worker';

export type StopFn = () => Promise<void>;
type Job = (app: FastifyInstance) => StopFn;

const jobs: Job[] = [mailWorkerJob];

export function startBackgroundWork(app: FastifyInstance): StopFn {
  const stops = jobs.map((job) => job(app));
  return async () => {
    await Promise.all(stops.map((stop) => stop()));
  };
}
