import { z } from 'zod';

/**
 * Which till (the counter device) made a sale or a return (issue 55): a device setting on the
 * counter page. Absent (a sale queued before issue 55): DEFAULT_TILL_ID.
 */
export const DEFAULT_TILL_ID = 'till-1';
export const TillIdSchema = z
  .string({ error: 'tillId must be text' })
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9-]{1,40}$/, 'tillId is 1 to 40 lower-case letters, digits or dashes, such as till-1');
