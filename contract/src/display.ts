// How the storefront shows text, for both sides (the web's cards and the pages function's copy of
// them). No zod here: the home page's cards import it.

/** How much of a description a book card shows (the storefront's cards, and the pages function's copy of them). */
export const CARD_DESCRIPTION_LIMIT = 80;

/** The first `limit` characters plus an ellipsis when longer. */
export function truncate(text: string, limit = CARD_DESCRIPTION_LIMIT): string {
  const chars = Array.from(text); // do not split a surrogate pair
  return chars.length > limit ? `${chars.slice(0, limit).join('')}...` : text;
}
