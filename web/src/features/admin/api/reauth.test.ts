import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../lib/api-client';
import { adminFetch as apiFetch, setReauthPrompt } from './staff-api';

// The dashboard's answer to 401 REAUTH_REQUIRED (adminFetch) (issue 36): ask once, send again once. The
// server is a fake here (the browser test web/e2e/reauth.spec.ts drives the real one).

const reauth = () => new Response(JSON.stringify({ message: 'Confirm your password to continue', code: 'REAUTH_REQUIRED' }), { status: 401 });
const ok = () => new Response(JSON.stringify({ saved: true }), { status: 200 });

function server(...answers: (() => Response)[]) {
  const fetch = vi.fn(async () => (answers.shift() ?? ok)());
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

afterEach(() => {
  vi.unstubAllGlobals();
  setReauthPrompt(null);
});

describe('a sensitive action refused for want of a recent proof', () => {
  it('asks the person, then sends the action again, once', async () => {
    const fetch = server(reauth, ok);
    const prompt = vi.fn(async () => true);
    setReauthPrompt(prompt);
    await expect(apiFetch('/api/admin/settings', { method: 'PUT', token: 't', body: {} })).resolves.toEqual({ saved: true });
    expect(prompt).toHaveBeenCalledTimes(1);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('stays refused when the person backs out, or when the retry is refused again (no loop)', async () => {
    const fetch = server(reauth, reauth, reauth);
    setReauthPrompt(async () => false);
    const first = await apiFetch('/api/admin/settings', { method: 'PUT', token: 't', body: {} }).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(ApiError);
    expect((first as ApiError).body?.code).toBe('REAUTH_REQUIRED');
    expect(fetch).toHaveBeenCalledTimes(1);
    setReauthPrompt(async () => true);
    const second = await apiFetch('/api/admin/settings', { method: 'PUT', token: 't', body: {} }).catch((e: unknown) => e);
    expect((second as ApiError).status).toBe(401);
    expect(fetch).toHaveBeenCalledTimes(3);
  });

  it('asks once for requests refused at the same moment; never for an anonymous request or another 401', async () => {
    server(reauth, reauth, ok, ok, () => new Response(JSON.stringify({ message: 'Invalid or expired admin token' }), { status: 401 }), reauth);
    let confirm: (value: boolean) => void = () => undefined;
    const prompt = vi.fn(() => new Promise<boolean>((resolve) => (confirm = resolve)));
    setReauthPrompt(prompt);
    const both = Promise.all([apiFetch('/a', { token: 't' }), apiFetch('/b', { token: 't' })]);
    await vi.waitFor(() => expect(prompt).toHaveBeenCalledTimes(1));
    confirm(true);
    await expect(both).resolves.toEqual([{ saved: true }, { saved: true }]);
    await expect(apiFetch('/c', { token: 't' })).rejects.toMatchObject({ status: 401 });
    await expect(apiFetch('/d')).rejects.toMatchObject({ status: 401 });
    expect(prompt).toHaveBeenCalledTimes(1);
  });
});
