import { z } from 'zod';
import { SubscriberEmailSchema } from './subscriptions';

// Receipts of counter sales (issue 57):
//   GET  /api/admin/sales/:id/receipt?format=escpos|html   sales.counter   200 ESC/POS bytes | an 80 mm page
//   POST /api/admin/sales/:id/email {email}                 sales.counter   202 { message }
// Every GET is a print: the first is the original, every later one says COPY (counted on the sale).

export const RECEIPT_FORMATS = ['escpos', 'html'] as const;
export type ReceiptFormat = (typeof RECEIPT_FORMATS)[number];

export const ReceiptQuerySchema = z
  .object({ format: z.enum(RECEIPT_FORMATS, { error: 'format must be escpos or html' }) })
  .strip();

export const ReceiptEmailInputSchema = z
  .object({ email: SubscriberEmailSchema.pipe(z.string().toLowerCase()) })
  .strip();
export type ReceiptEmailInput = z.input<typeof ReceiptEmailInputSchema>;

export interface ReceiptEmailResponse {
  message: string;
}

/** How a gift card's code shows on every receipt but the original: its last 4 only. */
export const maskedGiftCardCode = (last4: string) => `•••• ${last4}`;
