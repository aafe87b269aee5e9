import { describe, expect, it } from 'vitest';
import { canonicalAdminUsername } from './admin';

describe('canonicalAdminUsername', () => {
  it('gives every spelling of a name one canonical string', () => {
    expect(canonicalAdminUsername('admin')).toBe('admin');
    expect(canonicalAdminUsername(' Admin ')).toBe('admin');
    expect(canonicalAdminUsername('ADMIN')).toBe('admin');
    expect(canonicalAdminUsername('mara.ellison_2-x')).toBe('mara.ellison_2-x');
  });

  it('names no one with a path, a dot first, spaces inside, unicode or over 64 characters', () => {
    for (const name of ['admin/', '/admin', '/admin/', 'a/b', '.admin', '..', 'ad min', 'admín', 'аdmin', '__name__', '', 'a'.repeat(65)]) {
      expect(canonicalAdminUsername(name), name).toBeNull();
    }
    expect(canonicalAdminUsername('a'.repeat(64))).toBe('a'.repeat(64));
  });
});
