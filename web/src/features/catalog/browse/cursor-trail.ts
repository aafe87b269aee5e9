// Cursors only go forward, so Previous needs to know where the page before this one started. Every
// page we show records 'the page after me starts at nextCursor, and I start at cursor'; that memory
// lives in sessionStorage so it survives a reload and Back. A shared link to page 3 has no trail
// yet: Previous then offers the first page instead.

const KEY = 'bookstore.browse.trail';
const MAX_ENTRIES = 300;

type Trail = Record<string, string>;

function read(): Trail {
  try {
    return JSON.parse(sessionStorage.getItem(KEY) ?? '{}') as Trail;
  } catch {
    return {};
  }
}

/** `signature` names the filters and sort; a cursor is only meaningful within them. */
export function rememberNextPage(signature: string, cursor: string | undefined, nextCursor: string | null | undefined): void {
  if (!nextCursor) return;
  const trail = read();
  const key = `${signature}|${nextCursor}`;
  if (trail[key] === (cursor ?? '')) return;
  trail[key] = cursor ?? '';
  const keys = Object.keys(trail);
  for (const old of keys.slice(0, Math.max(0, keys.length - MAX_ENTRIES))) delete trail[old];
  try {
    sessionStorage.setItem(KEY, JSON.stringify(trail));
  } catch {
    // Storage full or blocked: Previous falls back to the first page.
  }
}

/** The cursor of the page before the one starting at `cursor`: '' for the first page, undefined if unknown. */
export function previousCursor(signature: string, cursor: string): string | undefined {
  return read()[`${signature}|${cursor}`];
}
