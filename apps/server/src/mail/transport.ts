/**
 * Where mails go: SMTP when SMTP_URL is set (nodemailer), otherwise one `.eml`
 * file per mail under DATA_DIR/mail, so a fresh install works with no set-up and
 * the log says where each mail landed.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { SendMailOptions } from 'nodemailer';

export interface MailTransport {
  /** Sends one message; resolves with where it went (SMTP response or file path). */
  send(message: SendMailOptions & { outboxId: string }): Promise<string>;
  close(): void;
  readonly description: string;
}

/** Short timeouts: the worker retries later rather than hanging on a dead server. */
const SMTP_TIMEOUTS = {
  connectionTimeout: 10_000,
  greetingTimeout: 10_000,
  socketTimeout: 30_000,
};

export function smtpTransport(url: string): MailTransport {
  const transporter = nodemailer.createTransport({ url, ...SMTP_TIMEOUTS });
  const host = new URL(url).host;
  return {
    description: `SMTP ${host}`,
    async send({ outboxId: _outboxId, ...message }) {
      const info = await transporter.sendMail(message);
      return `SMTP ${host} (${String(info.response ?? 'accepted')})`;
    },
    close: () => transporter.close(),
  };
}

export function fileTransport(folder: string, log: FastifyBaseLogger): MailTransport {
  const composer = nodemailer.createTransport({
    streamTransport: true,
    buffer: true,
    newline: 'unix',
  });
  return {
    description: `files under ${folder}`,
    async send({ outboxId, ...message }) {
      const info = await composer.sendMail(message);
      await mkdir(folder, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      const file = path.join(folder, `${stamp}-${outboxId}.eml`);
      // With streamTransport and buffer: true, nodemailer's message is a Buffer.
      await writeFile(file, info.message as Buffer, { mode: 0o600 });
      log.info({ file, to: message.to }, `mail written to ${file} (SMTP_URL is not set)`);
      return file;
    },
    close: () => composer.close(),
  };
}

export function createMailTransport(
  config: { smtpUrl: string | undefined; dataDir: string },
  log: FastifyBaseLogger,
): MailTransport {
  return config.smtpUrl
    ? smtpTransport(config.smtpUrl)
    : fileTransport(path.join(config.dataDir, 'mail'), log);
}
