// Escaping for text we put into HTML, and for JSON we put inside <script> elements.

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text or attribute value, HTML-escaped. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (ch) => ENTITIES[ch]!);
}

/**
 * JSON safe inside a <script> element: no '<' (so no '</script>' or '<!--'), no '>' or '&', and no
 * U+2028/U+2029; JSON.parse reads the \\u escapes back to the same characters.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
