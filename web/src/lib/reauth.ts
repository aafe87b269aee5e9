import { REAUTH_REQUIRED, readErrorBody } from '@bookstore/contract';
import { ApiError, apiFetch, type RequestOptions } from './api-client';

// Sensitive admin actions (issue 36) answer 401 REAUTH_REQUIRED when the session has not proved
// itself in the last 5 minutes. The dashboard registers a prompt (features/admin/components/
// reauth-dialog.tsx) that asks for the password (and code) and records the proof; `adminFetch`
// then sends the action again, once. The dashboard's api modules use adminFetch; the storefront
// keeps plain apiFetch (and its first load stays without this module).

type Prompt = () => Promise<boolean>;
let prompt: Prompt | null = null;
let asking: Promise<boolean> | null = null;

/** The dashboard's dialog, while it is mounted (null to remove it). */
export function setReauthPrompt(next: Prompt | null): void {
  prompt = next;
}

/** Asks the person once, however many requests were refused at the same moment; true when they confirmed. */
export function askToReauth(): Promise<boolean> {
  if (!prompt) return Promise.resolve(false);
  asking ??= prompt().finally(() => {
    asking = null;
  });
  return asking;
}

/** A 401 that asks for a fresh proof (read from a status and an already parsed JSON body). */
export function isReauthRequired(status: number | undefined, body: unknown): boolean {
  return status === 401 && readErrorBody(body).code === REAUTH_REQUIRED;
}

/** apiFetch for the dashboard: a 401 REAUTH_REQUIRED asks the person (once) and sends the request again, once. */
export async function adminFetch<T>(path: string, options: RequestOptions = {}): Promise<T> {
  try {
    return await apiFetch<T>(path, options);
  } catch (error) {
    if (!options.token || !(error instanceof ApiError) || !isReauthRequired(error.status, error.body)) throw error;
    if (!(await askToReauth())) throw error;
    return apiFetch<T>(path, options);
  }
}
