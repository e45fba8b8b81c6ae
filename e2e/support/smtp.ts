/** The browser journeys read mails from the same test SMTP server as the server's mail tests. */
export { startSmtp, type TestSmtp } from '../../apps/server/test/helpers/smtp';
