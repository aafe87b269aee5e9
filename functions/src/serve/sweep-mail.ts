import { logger } from 'firebase-functions/logger';
import { mailFrom, smtpUriSecret } from '../config';
import { sweepMail } from '../mail/send-mail';

// The `sweepMail` function's code (lib/sweep-mail.js): every minute, the mail that is due: retries
// after a temporary refusal, PENDING mail no trigger took, PROCESSING mail whose sender died.
export default async function run(): Promise<void> {
  const report = await sweepMail({ smtpUri: smtpUriSecret.value(), from: mailFrom.value() });
  logger.info('Mail swept', { by: 'sweepMail', ...report });
}
