import type { FirestoreEvent } from 'firebase-functions/v2/firestore';
import { mailFrom, smtpUriSecret } from '../config';
import { sendQueuedMail } from '../mail/send-mail';

// The `sendMail` function's code (lib/send-mail.js): sends the mail document that was created.
export default async function run(event: FirestoreEvent<unknown, { id: string }>): Promise<void> {
  await sendQueuedMail(event.params.id, { smtpUri: smtpUriSecret.value(), from: mailFrom.value() });
}
