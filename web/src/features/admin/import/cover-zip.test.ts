import { describe, expect, it } from 'vitest';
import { coverOf } from './cover-zip';

describe('coverOf (bulk covers: which zip entries are covers)', () => {
  it('takes <isbn>.jpg|png|webp anywhere in the zip, ISBN-10 as its ISBN-13', () => {
    expect(coverOf('9780306406157.jpg')).toEqual({ name: '9780306406157.jpg', isbn: '9780306406157', type: 'image/jpeg' });
    expect(coverOf('covers/0-306-40615-2.PNG')).toEqual({ name: 'covers/0-306-40615-2.PNG', isbn: '9780306406157', type: 'image/png' });
    expect(coverOf('a/b/9791000000015.webp')?.type).toBe('image/webp');
  });
  it('skips folders, macOS resource forks, other names, other types and wrong check digits', () => {
    for (const path of ['covers/', '__MACOSX/9780306406157.jpg', 'covers/._9780306406157.jpg', 'cover.jpg', '9780306406157.gif', '9780306406158.jpg', '9780306406157.jpg.exe']) {
      expect(coverOf(path), path).toBeNull();
    }
  });
});
