import { describe, expect, it } from 'vitest';
import { coverUrl } from './covers';

describe('coverUrl', () => {
  it('resolves bundled and uploaded covers, and falls back for anything else, outside URLs included', () => {
    expect(coverUrl('book-7.png')).toBe('/covers/book-7.svg');
    expect(coverUrl(`covers/${'b'.repeat(32)}.png`)).toBe(`/api/covers/${'b'.repeat(32)}.png`);
    expect(coverUrl('https://img.example.com/x.jpg')).toBe('/covers/book-1.svg');
    expect(coverUrl('javascript:alert(1)')).toBe('/covers/book-1.svg');
    expect(coverUrl(undefined)).toBe('/covers/book-1.svg');
  });
});
