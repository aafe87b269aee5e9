// Stripe's API takes application/x-www-form-urlencoded bodies with bracketed keys
// (`line_items[0][price_data][currency]=usd`, `metadata[orderId]=...`), as the SDK writes them.

type Value = string | Value[] | { [key: string]: Value };

/** Parses a Stripe-style form body (or query string) into nested objects and arrays. */
export function parseForm(body: string): Record<string, Value> {
  const root: Record<string, Value> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.replace(/\]/g, '').split('[');
    let node: Record<string, Value> | Value[] = root;
    path.forEach((segment, i) => {
      const last = i === path.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(path[i + 1]!);
      const slot = Array.isArray(node) ? Number(segment) : segment;
      const container = node as Record<string | number, Value>;
      if (last) {
        container[slot] = value;
        return;
      }
      container[slot] ??= nextIsIndex ? [] : {};
      node = container[slot] as Record<string, Value> | Value[];
    });
  }
  return root;
}
