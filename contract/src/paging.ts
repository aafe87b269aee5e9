import { z } from 'zod';
import { CURSOR_PATTERN } from './catalog-terms';

/** An opaque page cursor (url-safe base64), as returned in `nextCursor`; every paged list takes it. */
export const CursorSchema = z
  .string({ error: 'cursor must be text' })
  .regex(CURSOR_PATTERN, 'cursor is not valid');
