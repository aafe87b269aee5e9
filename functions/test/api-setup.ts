import { afterAll } from 'vitest';
import { adminToken, createdBooks, http } from './helpers';

// After each API (and in-process) test file: the books it made through the API are deleted (helpers.ts, createdBooks).
afterAll(async () => {
  if (createdBooks.size === 0) return;
  const token = await adminToken();
  for (const id of createdBooks) {
    const res = await http(`/api/books/${id}`, { method: 'DELETE', token });
    if (res.status !== 200 && res.status !== 204 && res.status !== 404) throw new Error(`could not delete test book ${id}: ${res.status}`);
  }
  createdBooks.clear();
});
