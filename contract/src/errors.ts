// Zod-free on purpose: the web's API client reads every error with it, and the storefront's first
// load carries no zod.

/** The one shape of every error the API sends; some answers add fields (see order.ts). */
export interface ApiErrorBody {
  message: string;
  code?: string;
  details?: Record<string, string[]>;
}

/** An error answer with its extra fields kept, for the readers of particular codes. */
export type ErrorBody = ApiErrorBody & Record<string, unknown>;

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Any error answer read into the one shape: a field of the wrong type is dropped, never trusted. */
export function readErrorBody(value: unknown): ErrorBody {
  const body: ErrorBody = { ...(isRecord(value) ? value : {}), message: '' };
  if (isRecord(value) && typeof value.message === 'string') body.message = value.message;
  if (typeof body.code !== 'string') delete body.code;
  if (body.details !== undefined) {
    const entries = isRecord(body.details) ? Object.entries(body.details) : [];
    const details = Object.fromEntries(entries.map(([k, v]) => [k, Array.isArray(v) ? v.filter((m): m is string => typeof m === 'string') : []]));
    if (entries.length) body.details = details;
    else delete body.details;
  }
  return body;
}

/** The strings of a list field of an error answer (e.g. `productIDs`), or [] when it is not one. */
export function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}
