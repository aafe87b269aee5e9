import type { Request } from 'express';
import type { z } from 'zod';
import { MAX_JSON_BYTES } from '../config';
import type { BodyError } from './body-parse-errors';
import { HttpError } from './http-error';

/** Field messages keyed by dotted path, as `details` in the 400 answer. */
export function zodDetails(error: z.ZodError): Record<string, string[]> {
  const details: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.') || '_';
    (details[key] ??= []).push(issue.message);
  }
  return details;
}

export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const details = zodDetails(result.error);
    const first = result.error.issues[0]?.message ?? 'Invalid request';
    throw new HttpError(400, first, { details });
  }
  return result.data;
}

/**
 * The JSON body of a request. The Functions runtime has already parsed it; malformed JSON reaches us
 * as `bodyError` (lib/body-parse-errors.ts records it instead of letting the runtime answer HTML),
 * and is answered here as a 400 `{ message }`. We also insist on the content type, a size bound
 * and an object at the top.
 */
export function jsonBody(req: Request): Record<string, unknown> {
  if (!req.is('application/json')) throw new HttpError(415, 'Content-Type must be application/json');
  const { rawBody: raw, bodyError } = req as Request & { rawBody?: Buffer; bodyError?: BodyError };
  if (bodyError) {
    if (bodyError.status === 413) throw new HttpError(413, 'Request body is too large');
    if (bodyError.status === 415) throw new HttpError(415, 'Unsupported request body encoding');
    throw new HttpError(400, 'Request body is not valid JSON');
  }
  if (raw && raw.length > MAX_JSON_BYTES) throw new HttpError(413, 'Request body is too large');
  const body: unknown = req.body;
  if (typeof body === 'string' || Buffer.isBuffer(body)) {
    // Runtimes that hand us the raw text: parse it ourselves.
    try {
      return asObject(JSON.parse(body.toString()));
    } catch (error) {
      if (error instanceof HttpError) throw error;
      throw new HttpError(400, 'Request body is not valid JSON');
    }
  }
  return asObject(body);
}

function asObject(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HttpError(400, 'Request body must be a JSON object');
  }
  return value as Record<string, unknown>;
}
