import { z } from 'zod';
import { TillIdSchema } from './till';

// Stripe Terminal readers (issue 57): each registered at Stripe by the shop and kept per till, so a
// till's 'Card on Terminal' hands the payment to its own reader.

/** Our id of a registered reader (the readers collection's document id). */
export const ReaderIdSchema = z
  .string({ error: 'readerId must be text' })
  .trim()
  .min(1, 'readerId is required')
  .max(64, 'readerId is at most 64 characters')
  .regex(/^[\w-]+$/, 'readerId has letters, digits, - and _ only');

// POST /api/admin/readers
export const ReaderInputSchema = z
  .object({
    /** The code the reader shows (Stripe's simulated reader: 'simulated-wpe'). */
    registrationCode: z.string({ error: 'registrationCode is required' }).trim().min(1, 'registrationCode is required').max(100, 'registrationCode is at most 100 characters'),
    label: z.string({ error: 'label is required' }).trim().min(1, 'label is required').max(60, 'label is at most 60 characters'),
    tillId: TillIdSchema,
  })
  .strip();
export type ReaderInput = z.input<typeof ReaderInputSchema>;

export interface Reader {
  _id: string;
  stripeReaderId: string;
  label: string;
  tillId: string;
  deviceType: string | null;
  createdAt: string;
}

export interface ReaderResponse {
  reader: Reader;
}

export interface ReadersList {
  readers: Reader[];
}

export const INVALID_REGISTRATION_CODE = 'INVALID_REGISTRATION_CODE';
