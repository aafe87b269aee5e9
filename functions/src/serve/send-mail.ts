import type { FirestoreEvent } from 'firebase-functions/v2/firestore';
import { logger } from 'firebase-functions/logger';
import { mailFrom, smtpUriSecret } from '../config';
import { sendQueuedMail, sweepMail, TRIGGER_SWEEP_BATCH } from '../mail/send-mail';

// The `sendMail` function's code (lib/send-mail.js): tries the mail document that was created, then
// the few mails that are due (retries, stuck ones) so they need not wait for the sweeper's minute.
export default async function run(event: FirestoreEvent<unknown, { id: string }>): Promise<void> {
  const options = { smtpUri: smtpUriSecret.value(), from: mailFrom.value() };
  await sendQueuedMail(event.params.id, options);
  const swept = await sweepMail(options, TRIGGER_SWEEP_BATCH);
  if (swept.due > 0) logger.info('Mail swept', { by: 'sendMail', ...swept });
}
