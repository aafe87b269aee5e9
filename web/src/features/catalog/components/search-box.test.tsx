// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SearchBox } from './search-box';

// Only fetch is stubbed: the box, its query and the API client are the real ones.
const BOOKS = [
  { _id: 'dune', title: 'Dune', author: 'Frank Herbert', category: 'fiction', coverImage: 'book-1' },
  { _id: 'dune-messiah', title: 'Dune Messiah', author: 'Frank Herbert', category: 'fiction', coverImage: 'book-2' },
  { _id: 'children-of-dune', title: 'Children of Dune', author: 'Frank Herbert', category: 'fiction', coverImage: 'book-3' },
];
const fetchMock = vi.fn(async (url: string) => {
  const q = new URL(url, 'http://shop').searchParams.get('q') ?? '';
  const suggestions = BOOKS.filter((b) => b.title.toLowerCase().includes(q));
  return new Response(JSON.stringify({ suggestions }), { status: 200, headers: { 'Content-Type': 'application/json' } });
});
const suggestCalls = () => fetchMock.mock.calls.map(([url]) => decodeURIComponent(new URL(url, 'http://shop').searchParams.get('q') ?? ''));

function Where() {
  const location = useLocation();
  return <output aria-label="location">{location.pathname + location.search}</output>;
}

function setup(user = userEvent.setup()) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <SearchBox />
        <Where />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { user, input: screen.getByRole('combobox', { name: 'Search books' }) };
}
const location = () => screen.getByRole('status', { name: 'location' }).textContent;
/** Waits out the 200 ms pause until the suggestions are on screen. */
const settle = () => waitFor(() => expect(screen.getAllByRole('option').length).toBeGreaterThan(0));

beforeEach(() => {
  fetchMock.mockClear();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('SearchBox', () => {
  it('asks for suggestions once the typing pauses, not per keystroke', async () => {
    // Keystrokes with no delay between them (`delay: null`: no timer turn between two awaits), so the
    // test does not depend on how busy the machine is: the 200 ms pause cannot end mid-word.
    const { user, input } = setup(userEvent.setup({ delay: null }));
    await user.type(input, 'du');
    expect(fetchMock).not.toHaveBeenCalled();
    await user.type(input, 'ne');
    expect(fetchMock).not.toHaveBeenCalled();
    await settle();
    expect(suggestCalls()).toEqual(['dune']);
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'DuneFrank Herbert · fiction',
      'Dune MessiahFrank Herbert · fiction',
      'Children of DuneFrank Herbert · fiction',
    ]);
  });

  it('moves through the suggestions with Down and Up, and Enter opens the highlighted book', async () => {
    const { user, input } = setup();
    await user.type(input, 'dune');
    await settle();
    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}{ArrowUp}');
    const options = screen.getAllByRole('option');
    expect(options.map((o) => o.getAttribute('aria-selected'))).toEqual(['false', 'true', 'false']);
    expect(input.getAttribute('aria-activedescendant')).toBe(options[1]!.id);
    await user.keyboard('{Enter}');
    expect(location()).toBe('/books/dune-messiah');
  });

  it('Down past the last suggestion comes back to the text: Enter then searches for it', async () => {
    const { user, input } = setup();
    await user.type(input, 'dune');
    await settle();
    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}{ArrowDown}');
    expect(screen.getAllByRole('option').some((o) => o.getAttribute('aria-selected') === 'true')).toBe(false);
    await user.keyboard('{Enter}');
    expect(location()).toBe('/search?q=dune');
  });

  it('Enter alone goes to the results page for the typed words', async () => {
    const { user, input } = setup();
    await user.type(input, '  children of{Enter}');
    expect(location()).toBe('/search?q=children%20of');
  });
});
