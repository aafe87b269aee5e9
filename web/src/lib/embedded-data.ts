// Data the server put in the page as first served (<script type="application/json" id="...">: a
// book page's book, /books's first page), so the first render needs no request. Read once per id:
// it describes the page as first loaded, not the pages navigated to later.

const read = new Map<string, unknown>();

/** The element's JSON when `accept` takes it; undefined when absent, malformed or of another shape. */
export function embeddedData<T>(id: string, accept: (value: unknown) => value is T): T | undefined {
  if (!read.has(id)) {
    let value: unknown = null;
    const text = typeof document === 'undefined' ? null : document.getElementById(id)?.textContent;
    try {
      value = text ? JSON.parse(text) : null;
    } catch {
      // A broken script tag only costs the round trip it was meant to save.
    }
    read.set(id, accept(value) ? value : null);
  }
  return (read.get(id) as T | null) ?? undefined;
}
