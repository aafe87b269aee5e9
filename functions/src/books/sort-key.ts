/** Lowercase without accents ('Érable' -> 'erable'): how search terms and sort keys compare. */
export function foldText(value: string): string {
  return value.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/** The key a title sorts by A-Z: folded, inner spaces collapsed, so 'the Lamp' and 'The lamp' sit together. */
export function sortKey(title: string): string {
  return foldText(title).replace(/\s+/g, ' ').trim();
}
