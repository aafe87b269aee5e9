// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BookForm, type BookFormValues } from './book-form';

afterEach(cleanup);

const cover = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'cover.png', { type: 'image/png' });

function setup() {
  const onSubmit = vi.fn<(values: BookFormValues) => Promise<boolean>>(async () => true);
  render(<BookForm submitLabel="Add Book" busyLabel="Adding.." busy={false} progress={null} onSubmit={onSubmit} />);
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
    'ISBN-13 (optional)': '978-0-306-40615-7',
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
    await fill(user, { 'ISBN-13 (optional)': '978-0-306-40615-8' });
    await submit(user);
    expect(screen.getByText('ISBN must be a valid ISBN-13')).toBeTruthy();
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
});
