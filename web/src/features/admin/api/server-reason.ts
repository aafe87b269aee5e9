import { ApiError } from '../../../lib/api-client';

/** The server's own reason for refusing a write (a 4xx's message, such as a cover URL that could not be fetched), for the alert's text. */
export function serverReason(error: unknown): string | undefined {
  return error instanceof ApiError && typeof error.kind === 'number' && error.kind < 500 ? error.message : undefined;
}
