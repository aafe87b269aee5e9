// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { DataTable } from './data-table';
import { SearchField } from './search-field';

// The pieces the dashboard's lists (Manage Books, the order desk) share.

afterEach(cleanup);

function Search({ labelHidden = false }: { labelHidden?: boolean }) {
  const [value, setValue] = useState('');
  return (
    <>
      <SearchField id="s" label="Search by title or author" labelHidden={labelHidden} value={value} onChange={(e) => setValue(e.target.value)} maxLength={5} placeholder="Title or author" />
      <output>{value}</output>
    </>
  );
}

describe('SearchField', () => {
  it('is a search box named by its label, passing the input props through', async () => {
    render(<Search />);
    const box = screen.getByRole('searchbox', { name: 'Search by title or author' });
    expect(box).toHaveProperty('placeholder', 'Title or author');
    await userEvent.setup().type(box, 'Le Guin');
    expect(screen.getByRole('status').textContent).toBe('Le Gu'); // maxLength reached the input
    expect(screen.getByText('Search by title or author').className).not.toContain('sr-only');
  });

  it('keeps a hidden label for screen readers', () => {
    render(<Search labelHidden />);
    expect(screen.getByRole('searchbox', { name: 'Search by title or author' })).toBeTruthy();
    expect(screen.getByText('Search by title or author').className).toBe('sr-only');
  });
});

describe('DataTable', () => {
  it('heads each column (scope col, its own class or the default) above the rows given', () => {
    render(
      <DataTable columns={[{ label: 'Title' }, { label: 'Total', className: 'px-4 py-3 text-right' }]}>
        <tr><td>Dune</td><td>$9.99</td></tr>
      </DataTable>,
    );
    const headers = screen.getAllByRole('columnheader');
    expect(headers.map((th) => [th.textContent, th.getAttribute('scope'), th.className])).toEqual([
      ['Title', 'col', 'px-6 py-3'],
      ['Total', 'col', 'px-4 py-3 text-right'],
    ]);
    const [, body] = screen.getAllByRole('rowgroup');
    expect(within(body!).getByRole('cell', { name: 'Dune' })).toBeTruthy();
  });
});
