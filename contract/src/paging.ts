import { z } from 'zod';

/** An opaque page cursor (url-safe base64), as returned in `nextCursor`; every paged list takes it. */
export const CursorSchema = z
  .string({ error: 'cursor must be text' })
  .regex(/^[A-Za-z0-9_-]{1,2048}$/, 'cursor is not valid');
