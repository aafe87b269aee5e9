import { readErrorBody, type ErrorBody } from '@bookstore/contract';
import { networkStatus } from './network-status';

export type ApiErrorKind = 'FETCH_ERROR' | 'TIMEOUT_ERROR' | 'PARSING_ERROR' | number;

/** Every failed request becomes one of these, classed as the spec's section 7 says. */
export class ApiError extends Error {
  constructor(
    readonly kind: ApiErrorKind,
    message: string,
    readonly body?: ErrorBody,
  ) {
    super(message);
  }
  get status(): number | undefined {
    return typeof this.kind === 'number' ? this.kind : undefined;
  }
}

export const DEFAULT_TIMEOUT_MS = 15_000;

/**
 * A 503 with code BUSY (docs/api.md) says another request held the document and nothing was
 * written: the same request again gets the real answer. A shopper should never read "try again"
 * for that, so the client sends it again itself, after the second the server asks for (and a
 * little more, so racers spread), a few times, within the request's own timeout.
 */
export const BUSY_RETRIES = 3;
export const isBusy = (status: number, text: string) => status === 503 && text.includes('"code":"BUSY"');

const pause = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new DOMException('aborted', 'AbortError'));
    }, { once: true });
  });

/** Classes a thrown fetch failure: our timeout, or the network. */
export function classifyThrown(error: unknown, timedOut: boolean): ApiError {
  if (timedOut) return new ApiError('TIMEOUT_ERROR', 'The server took too long to answer');
  if (error instanceof ApiError) return error;
  return new ApiError('FETCH_ERROR', 'Could not reach the server. Check your connection.');
}

/** Turns a response's status and text into data or an ApiError. */
export function classifyResponse<T>(status: number, text: string): T {
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    if (status >= 200 && status < 300) throw new ApiError('PARSING_ERROR', 'The server sent an unreadable answer');
    throw new ApiError(status, `Request failed (${status})`);
  }
  if (status >= 200 && status < 300) return body as T;
  const errorBody = readErrorBody(body);
  throw new ApiError(status, errorBody.message || `Request failed (${status})`, errorBody);
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as is, with its own type (the catalogue import's CSV or JSON lines), instead of `body`. */
  text?: { body: string; type: string };
  token?: string | null;
  headers?: Record<string, string>;
  timeoutMs?: number;
  /** TanStack Query's signal: a superseded request (a newer keystroke, a left page) is cancelled. */
  signal?: AbortSignal;
}

export async function apiFetch<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const onAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (options.text) headers['Content-Type'] = options.text.type;
  else if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  try {
    for (let attempt = 0; ; attempt += 1) {
      const res = await fetch(path, {
        method: options.method ?? 'GET',
        headers,
        body: options.text ? options.text.body : options.body === undefined ? undefined : JSON.stringify(options.body),
        credentials: 'same-origin',
        signal: controller.signal,
      });
      const text = await res.text();
      if (attempt >= BUSY_RETRIES || !isBusy(res.status, text)) return classifyResponse<T>(res.status, text);
      await pause(1000 + Math.random() * 250, controller.signal);
    }
  } catch (error) {
    const failure = classifyThrown(error, timedOut);
    // The network failed us (not our timeout, nor a request the caller cancelled): lie-fi is offline too.
    if (failure.kind === 'FETCH_ERROR' && !(error instanceof ApiError) && !options.signal?.aborted) networkStatus?.reportFailure();
    throw failure;
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}
