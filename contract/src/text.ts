import { z } from 'zod';

// Lone UTF-16 surrogates cannot be stored as valid UTF-8, and C0 control characters (NUL among them)
// have no place in a book title or an address; both are refused rather than silently mangled.
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
// eslint-disable-next-line no-control-regex -- as above
const CONTROL_CHARS_NO_NEWLINE = /[\u0000-\u001F\u007F]/;

// C1 controls, and the bidi embedding, override and isolate controls (U+202A-U+202E, U+2066-U+2069):
// an override makes 'txt.exe' of 'exe.txt' on a packing slip or in the order desk. The marks
// U+200E/U+200F that right-to-left titles need stay allowed.
const C1_AND_BIDI_CONTROLS = /[\u0080-\u009F\u202A-\u202E\u2066-\u2069]/;

export function isCleanText(value: string, allowNewlines = false): boolean {
  if (LONE_SURROGATE.test(value)) return false;
  if (C1_AND_BIDI_CONTROLS.test(value)) return false;
  return !(allowNewlines ? CONTROL_CHARS : CONTROL_CHARS_NO_NEWLINE).test(value);
}

/** A trimmed, required, single-line string of at most `max` characters. */
export function text(label: string, max: number, options: { multiline?: boolean } = {}) {
  return z
    .string({ error: `${label} must be text` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`)
    .refine((value) => isCleanText(value, options.multiline), `${label} contains characters that are not allowed`);
}

/**
 * An optional trimmed string of at most `max` characters; absent or blank becomes undefined.
 * Refused like `text` when it holds control characters, unless `search`: a search term is only
 * matched, never stored.
 */
export function optionalText(label: string, max: number, options: { multiline?: boolean; search?: boolean } = {}) {
  const limited = z
    .string({ error: `${label} must be text` })
    .trim()
    .max(max, `${label} must be at most ${max} characters`);
  const checked = options.search
    ? limited
    : limited.refine((value) => isCleanText(value, options.multiline), `${label} contains characters that are not allowed`);
  return checked.optional().transform((value) => (value ? value : undefined));
}
