// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BookForm, type BookFormValues } from './book-form';

afterEach(cleanup);

const cover = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'cover.png', { type: 'image/png' });

function setup() {
  const onSubmit = vi.fn<(values: BookFormValues) => Promise<boolean>>(async () => true);
  render(
    <QueryClientProvider client={new QueryClient()}>
      <BookForm submitLabel="Add Book" busyLabel="Adding.." busy={false} progress={null} onSubmit={onSubmit} />
    </QueryClientProvider>,
  );
  return { onSubmit, user: userEvent.setup() };
}

type User = ReturnType<typeof userEvent.setup>;

/** A valid new book; `change` replaces a field's typed value ('' leaves it empty). */
async function fill(user: User, change: Record<string, string> = {}) {
  const values: Record<string, string> = {
    Title: 'The Left Hand of Darkness',
    Author: 'Ursula K. Le Guin',
    Description: 'A winter world.',
    'Old Price': '20',
    'New Price': '15.5',
    'ISBN-13 or ISBN-10 (optional)': '978-0-306-40615-7',
    Stock: '4',
    ...change,
  };
  for (const [label, value] of Object.entries(values)) if (value) await user.type(screen.getByLabelText(label), value);
  await user.selectOptions(screen.getByLabelText('Category'), 'fiction');
  await user.click(screen.getByLabelText('Trending'));
  await user.upload(screen.getByLabelText('Cover Image'), cover);
}

const submit = (user: User) => user.click(screen.getByRole('button', { name: 'Add Book' }));

describe('BookForm', () => {
  it('sends the parsed payload and the chosen cover, then clears itself', async () => {
    const { onSubmit, user } = setup();
    await fill(user);
    await submit(user);
    expect(onSubmit).toHaveBeenCalledTimes(1);
    const [{ payload, file }] = onSubmit.mock.calls[0]!;
    expect(payload).toEqual({
      title: 'The Left Hand of Darkness',
      author: 'Ursula K. Le Guin',
      description: 'A winter world.',
      category: 'fiction',
      trending: true,
      oldPrice: 20,
      newPrice: 15.5,
      coverImage: 'book-1', // a placeholder until the upload names the cover
      isbn: '9780306406157',
      stock: 4,
    });
    expect(file).toBe(cover);
    expect(screen.getByLabelText('Title')).toHaveProperty('value', '');
  });

  it('names every missing field and sends nothing', async () => {
    const { onSubmit, user } = setup();
    await submit(user);
    for (const message of ['Title is required', 'Description is required', 'Stock is required', 'Choose a cover image']) {
      expect(screen.getByText(message)).toBeTruthy();
    }
    expect(screen.getByLabelText('Title').getAttribute('aria-invalid')).toBe('true');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('refuses an ISBN-13 whose check digit is wrong', async () => {
    const { onSubmit, user } = setup();
    await fill(user, { 'ISBN-13 or ISBN-10 (optional)': '978-0-306-40615-8' });
    await submit(user);
    expect(screen.getByText('ISBN must be a valid ISBN-13 or ISBN-10')).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('refuses a price above $10,000 and stock that is negative or fractional', async () => {
    const { onSubmit, user } = setup();
    await fill(user, { 'New Price': '10000.01', Stock: '-1' });
    await submit(user);
    expect(screen.getByText('New price must be between 0 and 10000')).toBeTruthy();
    expect(screen.getByText('Stock cannot be negative')).toBeTruthy();
    await user.clear(screen.getByLabelText('Stock'));
    await user.type(screen.getByLabelText('Stock'), '2.5');
    await submit(user);
    expect(screen.getByText('Stock must be a whole number')).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('refuses a cover over 2 MB before uploading it', async () => {
    const { onSubmit, user } = setup();
    await fill(user);
    await user.upload(screen.getByLabelText('Cover Image'), new File([new Uint8Array(2 * 1024 * 1024 + 1)], 'big.png', { type: 'image/png' }));
    await submit(user);
    expect(screen.getByText('Cover image must be at most 2 MB')).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('asks for a subtitle under the title (optional), and sends it (issue 37)', async () => {
    const { onSubmit, user } = setup();
    await fill(user);
    await user.type(screen.getByLabelText('Subtitle (optional)'), 'A Winter World');
    await submit(user);
    expect(onSubmit.mock.calls[0]![0].payload).toMatchObject({ title: 'The Left Hand of Darkness', subtitle: 'A Winter World' });
    const labels = [...document.querySelectorAll('label')].map((l) => l.textContent);
    expect(labels.indexOf('Subtitle (optional)')).toBe(labels.indexOf('Title') + 1);
  });

  it('a role that may change the stock only: every other field read-only, sent as it was (the server checks the same)', async () => {
    const onSubmit = vi.fn<(values: BookFormValues) => Promise<boolean>>(async () => false);
    const initial = {
      _id: 'b1', title: 'Kept', subtitle: 'Kept Too', description: 'D', category: 'fiction' as const, trending: false, oldPrice: 9, newPrice: 8,
      coverImage: 'book-1', stock: 2, weightGrams: 300, createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z',
    };
    render(
      <QueryClientProvider client={new QueryClient()}>
        <BookForm initial={initial} submitLabel="Update Book" busyLabel="Updating.." busy={false} progress={null} onSubmit={onSubmit} canWrite={(p) => p === 'books.stock'} />
      </QueryClientProvider>,
    );
    const user = userEvent.setup();
    expect(screen.getByLabelText('Title')).toHaveProperty('readOnly', true);
    expect(screen.getByLabelText('Subtitle (optional)')).toHaveProperty('readOnly', true);
    expect(screen.getByLabelText('Category')).toHaveProperty('disabled', true);
    expect(screen.getByLabelText('Stock')).toHaveProperty('readOnly', false);
    await user.clear(screen.getByLabelText('Stock'));
    await user.type(screen.getByLabelText('Stock'), '7');
    await user.click(screen.getByRole('button', { name: 'Update Book' }));
    expect(onSubmit.mock.calls[0]![0].payload).toMatchObject({ title: 'Kept', subtitle: 'Kept Too', newPrice: 8, weightGrams: 300, stock: 7 });
  });

  it('takes a cover URL instead of a file, with the edition details', async () => {
    const { onSubmit, user } = setup();
    for (const [label, value] of [['Title', 'Salt and Ledger'], ['Description', 'D'], ['Old Price', '9'], ['New Price', '8'], ['Stock', '1'], ['Publisher', 'Tidewater Books'], ['Pages', '212']]) {
      await user.type(screen.getByLabelText(label!), value!);
    }
    await user.type(screen.getByLabelText(/^Publication date/), '1998');
    await user.type(screen.getByLabelText(/^Language/), 'en-us');
    await user.selectOptions(screen.getByLabelText('Format'), 'paperback');
    await user.selectOptions(screen.getByLabelText('Category'), 'business');
    await user.type(screen.getByLabelText(/^Or a cover URL/), 'https://covers.example.com/salt.jpg');
    await submit(user);
    const [{ payload, file }] = onSubmit.mock.calls[0]!;
    expect(file).toBeNull();
    expect(payload).toMatchObject({ coverImage: '', coverUrl: 'https://covers.example.com/salt.jpg', publisher: 'Tidewater Books', publishedOn: '1998', pages: 212, format: 'paperback', language: 'en-US' });
  });

  it('offers an ISBN lookup that fills only the empty fields; unreachable, it says so and the form still sends', async () => {
    const answers: Response[] = [
      new Response(JSON.stringify({ isbn: '9780306406157', title: 'From Open Library', subtitle: 'And Its Subtitle', author: 'Imogen Hale', publisher: 'Harbour Light Press', pages: 288, source: 'Open Library' }), { status: 200, headers: { 'Content-Type': 'application/json' } }),
    ];
    const real = globalThis.fetch;
    const asked: string[] = [];
    globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input);
      if (!url.includes('/api/admin/isbn/')) return real(input, init);
      asked.push(url);
      return answers.shift() ?? new Response(JSON.stringify({ message: 'Open Library cannot be reached right now' }), { status: 503, headers: { 'Content-Type': 'application/json' } });
    }) as typeof fetch;
    try {
      const { onSubmit, user } = setup();
      await user.type(screen.getByLabelText('Author'), 'Typed By Admin');
      await user.type(screen.getByLabelText('ISBN-13 or ISBN-10 (optional)'), '0-306-40615-2');
      await user.click(screen.getByRole('button', { name: 'Fill Empty Fields from Open Library' }));
      expect(await screen.findByText('Filled title, subtitle, publisher, pages from Open Library. Check them before saving.')).toBeTruthy();
      expect(asked).toEqual(['/api/admin/isbn/9780306406157']);
      expect(screen.getByLabelText('Title')).toHaveProperty('value', 'From Open Library');
      expect(screen.getByLabelText('Subtitle (optional)')).toHaveProperty('value', 'And Its Subtitle');
      expect(screen.getByLabelText('Author')).toHaveProperty('value', 'Typed By Admin'); // never overwritten
      expect(screen.getByLabelText('Pages')).toHaveProperty('value', '288');

      await user.clear(screen.getByLabelText('ISBN-13 or ISBN-10 (optional)'));
      await user.type(screen.getByLabelText('ISBN-13 or ISBN-10 (optional)'), '9791000000015');
      await user.click(screen.getByRole('button', { name: 'Fill Empty Fields from Open Library' }));
      expect(await screen.findByText(/Open Library cannot be reached right now/)).toBeTruthy();
      await fill(user, { Title: '', Author: '', 'ISBN-13 or ISBN-10 (optional)': '' });
      await submit(user);
      expect(onSubmit).toHaveBeenCalledTimes(1);
    } finally {
      globalThis.fetch = real;
    }
  });
});
