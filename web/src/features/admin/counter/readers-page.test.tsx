// @vitest-environment happy-dom
import type { Reader } from '@bookstore/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { saveAdminSession } from '../../../lib/admin-session';
import { Component as ReadersPage } from './readers-page';

// The Card Readers page mirrors the API's permissions (readers.handlers.ts): anyone at the counter
// (`sales.counter`) sees the list; only `terminal.readers` (owner, manager) gets the form and Remove.
// Only fetch is stubbed.

const READER: Reader = { _id: 'r1', stripeReaderId: 'tmr_abc123', label: 'Front desk', tillId: 'till-2', deviceType: 'simulated_wisepos_e', createdAt: '2026-11-25T10:00:00.000Z' };
const me = (role: string) => ({ username: 'robin', displayName: 'Robin Till', role, disabled: false, totpEnabled: false, permissions: [], totpSetupRequired: false });

function renderAs(role: string) {
  vi.stubGlobal('fetch', vi.fn(async (url: string) => {
    const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });
    if (url === '/api/admin/me') return json(me(role));
    if (url === '/api/admin/readers') return json({ readers: [READER] });
    return json({ message: 'not stubbed' }, 404);
  }));
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(<QueryClientProvider client={client}><MemoryRouter><ReadersPage /></MemoryRouter></QueryClientProvider>);
}

beforeEach(() => saveAdminSession('token', 3600));
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Card Readers page', () => {
  it('a bookseller sees the readers without the form or Remove', async () => {
    renderAs('bookseller');
    expect((await screen.findAllByText('Front desk')).length).toBeGreaterThan(0);
    expect(screen.getAllByText('tmr_abc123').length).toBeGreaterThan(0);
    expect(screen.queryByRole('form', { name: 'Register a reader' })).toBeNull();
    expect(screen.queryByLabelText('Registration code')).toBeNull();
    expect(screen.queryAllByRole('button', { name: 'Remove Front desk' })).toHaveLength(0);
  });

  it('a manager gets the form, with this device\'s till, and Remove', async () => {
    renderAs('manager');
    expect(await screen.findByLabelText('Registration code')).toBeTruthy();
    expect((screen.getByLabelText('Till') as HTMLInputElement).value).toBe('till-1');
    expect((await screen.findAllByRole('button', { name: 'Remove Front desk' })).length).toBeGreaterThan(0);
  });
});
