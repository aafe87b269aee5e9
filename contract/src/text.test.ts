import { describe, expect, it } from 'vitest';
import { optionalText } from './text';

describe('optionalText', () => {
  const note = optionalText('Note', 5, { multiline: true });
  const author = optionalText('Author', 5);
  const q = optionalText('q', 5, { search: true });
  const message = (result: { error?: { issues: { message: string }[] } }) => result.error?.issues[0]?.message;

  it('trims, and makes absent or blank undefined', () => {
    expect(author.parse('  Ann ')).toBe('Ann');
    expect(author.parse(undefined)).toBeUndefined();
    expect(author.parse('   ')).toBeUndefined();
  });

  it('refuses what is too long or not text, naming the field', () => {
    expect(message(author.safeParse('abcdef'))).toBe('Author must be at most 5 characters');
    expect(message(q.safeParse(12))).toBe('q must be text');
  });

  it('refuses control characters, newlines only when single-line; a search term takes any', () => {
    expect(message(author.safeParse('a\u0000b'))).toBe('Author contains characters that are not allowed');
    expect(message(author.safeParse('a\nb'))).toBe('Author contains characters that are not allowed');
    expect(note.parse('a\nb')).toBe('a\nb');
    expect(message(note.safeParse('a\u0000b'))).toBe('Note contains characters that are not allowed');
    expect(q.parse('a\u0000b')).toBe('a\u0000b');
  });

  it('refuses bidi overrides and isolates and C1 controls, keeps the direction marks', () => {
    for (const c of ['\u202A', '\u202E', '\u2066', '\u2069', '\u0085', '\u009F']) {
      expect(message(author.safeParse(`a${c}b`)), c.codePointAt(0)!.toString(16)).toBe('Author contains characters that are not allowed');
    }
    expect(author.parse('\u200Fكتاب')).toBe('\u200Fكتاب');
  });
});
