import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { START_SCRIPT } from './start-script';

interface Element { tag: string; attrs: Record<string, string>; setAttribute(k: string, v: string): void }
interface Control {
  tagName: string;
  type?: string;
  value?: string;
  disabled?: boolean;
  textContent: string;
  inRoot: boolean;
  isConnected: boolean;
  attrs: Record<string, string>;
  /** What the replay did to it: clicks, and the values its change events carried. */
  played: string[];
  closest(selector: string): Control | null;
  setAttribute(k: string, v: string): void;
  removeAttribute(k: string): void;
  click(): void;
  dispatchEvent(event: Event): void;
}
type Listener = (event: { type: string; target: unknown; preventDefault(): void; [key: string]: unknown }) => void;

/** A control of the page as the script sees it (closest() answers its own selectors only). */
function control(tagName: string, props: Partial<Control> = {}): Control {
  const el: Control = {
    tagName, textContent: '', inRoot: true, isConnected: true, attrs: {}, played: [], ...props,
    closest(selector) {
      if (selector === '#root') return el.inRoot ? el : null;
      return /button|select|checkbox/.test(selector) && (tagName !== 'INPUT' || el.type === 'checkbox') ? el : null;
    },
    setAttribute(k, v) { el.attrs[k] = String(v); }, // as the DOM does
    removeAttribute(k) { delete el.attrs[k]; },
    click() { el.played.push('click'); },
    dispatchEvent(event) { el.played.push(`${event.type}:${el.value}`); },
  };
  return el;
}

/** A drawn Add to Cart: a button naming its book in `data-book`. */
function addToCart(id: string, title: string): Control {
  const el = control('BUTTON', { textContent: `Add to Cart: ${title}` }) as Control & { getAttribute(k: string): string | null };
  el.attrs['data-book'] = id;
  el.getAttribute = (k) => el.attrs[k] ?? null;
  return el;
}

/** A link of the page (`a[href]`), as the script sees it; `target` is its target attribute. */
function link(textContent: string, props: Partial<Control> & { target?: string } = {}): Control & { target: string } {
  const el = control('A', { textContent, ...props }) as Control & { target: string };
  el.target = props.target ?? '';
  el.closest = (selector) => (selector === '#root' ? (el.inRoot ? el : null) : selector === 'a[href]' ? el : null);
  return el;
}

/** Runs the script against a page stand-in whose events, frames and timers the test fires by hand. */
function page(
  readyState: 'loading' | 'interactive' | 'complete',
  data: Record<string, string> = { 'data-entry': '/assets/index-1.js', 'data-preload': '/assets/react-2.js /assets/home-3.js' },
  { root = 'served', paintTiming = true, queryState = null }: { root?: 'served' | 'empty'; paintTiming?: boolean; queryState?: unknown } = {},
) {
  const added: Element[] = [];
  const listeners: Record<string, Listener[]> = {};
  const frames: (() => void)[] = [];
  const timers: { run: () => void; ms: number }[] = [];
  const window: { __early?: { stop(): void; replay(onEarlyAdd?: (book: unknown) => void): void } } = {};
  /** localStorage, and the header's Cart link with its count (what the script finds by its selectors). */
  const storage: Record<string, string> = {};
  const localStorage = { getItem: (k: string) => storage[k] ?? null, setItem: (k: string, v: string) => (storage[k] = v) };
  const cartLink = Object.assign(control('A', { textContent: 'Cart' }), { getAttribute: (k: string) => cartLink.attrs[k] ?? null });
  cartLink.attrs['aria-label'] = 'Cart, 0 items';
  const document = {
    querySelector: (selector: string) => (selector === "a[href='/cart'][aria-label^=Cart]" ? cartLink : null),
    currentScript: { getAttribute: (name: string) => data[name] ?? null },
    readyState,
    head: { appendChild: (el: Element) => added.push(el) },
    createElement: (tag: string): Element => ({ tag, attrs: {}, setAttribute(k, v) { this.attrs[k] = v; } }),
    getElementById: (id: string) =>
      id === 'root' ? { firstChild: root === 'served' ? {} : null } : id === 'query-state' && queryState ? { textContent: JSON.stringify(queryState) } : null,
  };
  /** The Paint Timing API: `paint()` delivers first-contentful-paint to whoever observes it. */
  const observers: { callback: (list: { getEntriesByName(name: string): unknown[] }) => void; disconnected: boolean }[] = [];
  class PerformanceObserver {
    private readonly entry: (typeof observers)[number];
    constructor(callback: (typeof observers)[number]['callback']) {
      if (!paintTiming) throw new TypeError('PerformanceObserver is not defined');
      this.entry = { callback, disconnected: false };
      observers.push(this.entry);
    }
    observe() {}
    disconnect() { this.entry.disconnected = true; }
  }
  const paint = () => observers.filter((o) => !o.disconnected).forEach((o) => o.callback({ getEntriesByName: (name) => (name === 'first-contentful-paint' ? [{}] : []) }));
  new Function('document', 'window', 'addEventListener', 'requestAnimationFrame', 'setTimeout', 'PerformanceObserver', 'localStorage', START_SCRIPT)(
    document,
    window,
    (type: string, listener: Listener) => (listeners[type] ??= []).push(listener),
    (frame: () => void) => frames.push(frame),
    (run: () => void, ms: number) => timers.push({ run, ms }),
    PerformanceObserver,
    localStorage,
  );
  /** Dispatches an event as the capture listeners see it; true when the script prevented its default. */
  const fire = (type: string, target: unknown, extra: Record<string, unknown> = {}) => {
    let prevented = false;
    for (const listener of listeners[type] ?? []) listener({ type, target, ...extra, preventDefault: () => (prevented = true) });
    return prevented;
  };
  const scripts = () => added.filter((el) => el.tag === 'script');
  return { added, listeners, frames, timers, document, window, fire, scripts, paint, storage, cartLink };
}

describe('the start script: when the app starts', () => {
  // The first half of the preloads with the entry, the rest a task later.
  const started = [
    ['link', { rel: 'modulepreload', crossorigin: '', href: '/assets/react-2.js' }],
    ['script', { type: 'module', crossorigin: '', src: '/assets/index-1.js' }],
    ['link', { rel: 'modulepreload', crossorigin: '', href: '/assets/home-3.js' }],
  ];
  /** Runs every task queued for now (0 ms), and those they queue. */
  const runTasks = (p: ReturnType<typeof page>) => {
    for (let i; (i = p.timers.findIndex((t) => t.ms === 0)) >= 0;) p.timers.splice(i, 1)[0]!.run();
  };

  it('adds nothing while the document is parsed, then the preloads and the entry a task after the first contentful paint', () => {
    const p = page('loading');
    expect(p.added).toEqual([]);
    p.listeners.DOMContentLoaded![0]!({ type: 'DOMContentLoaded', target: null, preventDefault() {} });
    expect(p.added).toEqual([]); // parsed, not painted yet
    p.paint();
    expect(p.added).toEqual([]);
    runTasks(p);
    expect(p.added.map((el) => [el.tag, el.attrs])).toEqual(started);
  });

  it('adds many preloads in two tasks: the first half with the entry, the rest a task later', () => {
    const hrefs = Array.from({ length: 13 }, (_, i) => `/assets/chunk-${i}.js`);
    const p = page('interactive', { 'data-entry': '/assets/index-1.js', 'data-preload': hrefs.join(' ') });
    p.paint();
    const runNext = () => p.timers.splice(p.timers.findIndex((t) => t.ms === 0), 1)[0]!.run();
    runNext(); // the task after the paint
    expect(p.added.map((el) => el.attrs.href ?? el.attrs.src)).toEqual([...hrefs.slice(0, 7), '/assets/index-1.js']);
    runNext();
    expect(p.added.map((el) => el.attrs.href ?? el.attrs.src)).toEqual([...hrefs.slice(0, 7), '/assets/index-1.js', ...hrefs.slice(7)]);
    expect(p.timers.filter((t) => t.ms === 0)).toEqual([]);
  });

  it('does not wait for the load event: a parsed, painted page still loading its pictures starts', () => {
    const p = page('interactive');
    expect(p.listeners.load).toBeUndefined();
    p.paint();
    p.timers.find((t) => t.ms === 0)!.run();
    expect(p.scripts()).toHaveLength(1);
  });

  it('starts at once on the plain shell (an empty root: the app draws the page)', () => {
    const p = page('complete', undefined, { root: 'empty' });
    expect(p.scripts()).toHaveLength(1);
    runTasks(p);
    expect(p.added.map((el) => [el.tag, el.attrs])).toEqual(started);
  });

  it('starts 3 s after the parse when nothing is painted (a hidden tab), and only once', () => {
    const p = page('complete', { 'data-entry': '/assets/index-1.js' });
    p.timers.find((t) => t.ms === 3000)!.run();
    expect(p.added.map((el) => el.tag)).toEqual(['script']);
    p.paint();
    p.timers.filter((t) => t.ms === 0).forEach((t) => t.run());
    expect(p.scripts()).toHaveLength(1);
  });

  it('without the Paint Timing API, starts after a frame', () => {
    const p = page('complete', undefined, { paintTiming: false });
    p.frames.shift()!();
    p.timers.find((t) => t.ms === 0)!.run();
    expect(p.scripts()).toHaveLength(1);
  });
});

describe('the start script: taps before the app starts (decision 038)', () => {
  it('keeps each button clicked once, marked, and replays it once when the app says so', () => {
    const p = page('complete');
    const add = control('BUTTON', { textContent: 'Add to Cart: Dune' });
    const heart = control('BUTTON', { textContent: 'Add to wishlist: Dune' });
    expect(p.fire('click', add)).toBe(false); // a button's click has no default to stop
    p.fire('click', add); // a second tap while waiting: still one effect
    p.fire('click', heart);
    expect(add.attrs['data-queued']).toBe('');
    expect(add.played).toEqual([]);
    p.window.__early!.stop();
    expect(add.attrs).toEqual({}); // the marks go before React hydrates
    p.fire('click', add); // from now on React's own listeners handle taps
    p.window.__early!.replay();
    p.window.__early!.replay(); // once only
    expect(add.played).toEqual(['click']);
    expect(heart.played).toEqual(['click']);
  });

  it('does not click a button that no longer says what was tapped, or is gone or disabled', () => {
    const p = page('complete');
    const heart = control('BUTTON', { textContent: 'Add to wishlist: Dune' });
    const gone = control('BUTTON', { textContent: 'Add to Cart: Emma' });
    const sold = control('BUTTON', { textContent: 'Add to Cart: Ulysses' });
    for (const el of [heart, gone, sold]) p.fire('click', el);
    p.window.__early!.stop();
    heart.textContent = 'Remove from wishlist: Dune'; // this browser's list holds it already
    gone.isConnected = false;
    sold.disabled = true;
    p.window.__early!.replay();
    expect([heart.played, gone.played, sold.played]).toEqual([[], [], []]);
  });

  it('keeps the last choice of a select, not its clicks, and replays it as one change', () => {
    const p = page('complete');
    const genre = control('SELECT', { value: 'fiction' });
    p.fire('click', genre);
    p.fire('change', genre);
    genre.value = 'horror';
    p.fire('change', genre);
    p.window.__early!.stop();
    genre.value = ''; // hydration put back the server's value
    p.window.__early!.replay();
    expect(genre.played).toEqual(['change:horror']);
  });

  it('stops a checkbox from changing and a form from being sent, so the replay is the one effect', () => {
    const p = page('complete');
    const stock = control('INPUT', { type: 'checkbox' });
    expect(p.fire('click', stock)).toBe(true);
    expect(p.fire('submit', {})).toBe(true);
    p.window.__early!.stop();
    p.window.__early!.replay();
    expect(stock.played).toEqual(['click']);
  });

  it('leaves alone what is outside the app, disabled, or not a control', () => {
    const p = page('complete');
    const controls = [control('BUTTON', { inRoot: false }), control('BUTTON', { disabled: true }), control('INPUT', { type: 'text' })];
    for (const el of controls) p.fire('click', el);
    p.fire('click', { tagName: 'A', closest: () => null });
    p.window.__early!.stop();
    for (const el of controls) el.disabled = false;
    p.window.__early!.replay();
    expect(controls.map((el) => el.played)).toEqual([[], [], []]);
  });

  it('keeps a link tapped while taps wait, and follows it after them, whatever it says by then', () => {
    const p = page('complete');
    const add = control('BUTTON', { textContent: 'Add to Cart: Dune' });
    const cart = link('Cart, 0 items');
    const books = link('Books');
    p.fire('click', add);
    expect(p.fire('click', books)).toBe(true); // not followed now: the page load would drop the tap
    expect(p.fire('click', cart)).toBe(true); // the last link tapped is the one followed
    expect(cart.attrs['data-queued']).toBe('');
    p.window.__early!.stop();
    expect(cart.attrs).toEqual({});
    cart.textContent = 'Cart, 1 item'; // the replayed add changed it
    const order: string[] = [];
    add.click = () => order.push('add');
    cart.click = () => order.push('cart');
    p.window.__early!.replay();
    expect(order).toEqual(['add', 'cart']);
    expect(books.played).toEqual([]);
    expect(books.attrs).toEqual({}); // replaced by the later link: not left marked
  });

  it('follows the link after every other kept tap, even one made after it', () => {
    const p = page('complete');
    const add = control('BUTTON', { textContent: 'Add to Cart: Dune' });
    const heart = control('BUTTON', { textContent: 'Add to wishlist: Dune' });
    const cart = link('Cart, 0 items');
    const order: string[] = [];
    add.click = () => order.push('add');
    heart.click = () => order.push('heart');
    cart.click = () => order.push('cart');
    p.fire('click', add);
    p.fire('click', cart);
    p.fire('click', heart);
    p.window.__early!.stop();
    p.window.__early!.replay();
    expect(order).toEqual(['add', 'heart', 'cart']);
  });

  it('leaves a link to the browser when no tap waits, or when it opens a new tab or window', () => {
    const p = page('complete');
    expect(p.fire('click', link('Cart, 0 items'))).toBe(false); // nothing waits: a link as ever
    p.fire('click', control('BUTTON', { textContent: 'Add to Cart: Dune' }));
    expect(p.fire('click', link('Cart, 0 items'), { ctrlKey: true })).toBe(false);
    expect(p.fire('click', link('Cart, 0 items'), { metaKey: true })).toBe(false);
    expect(p.fire('click', link('Cart, 0 items'), { button: 1 })).toBe(false);
    expect(p.fire('click', link('Help', { target: '_blank' }))).toBe(false);
    expect(p.fire('click', link('Elsewhere', { inRoot: false }))).toBe(false);
  });

  it('does nothing on a page without an entry (no app to start)', () => {
    const p = page('complete', {});
    expect(p.window.__early).toBeUndefined();
    expect(p.listeners.click).toBeUndefined();
  });
});

describe('the start script: Add to Cart answered before the app starts (issue 60)', () => {
  const dune = { _id: 'b1', title: 'Dune', newPrice: 9.5, oldPrice: 12, stock: 3 };
  const emma = { _id: 'b2', title: 'Emma', newPrice: 5, stock: 1 };
  // The home list's dehydrated state, as document.ts serves it.
  const homeState = { mutations: [], queries: [{ queryKey: ['books', { limit: 16 }], state: { data: [emma, dune], status: 'success' } }] };

  it('puts the book in the stored cart at once, counts it in the header, marks the button, and hands it to the app instead of clicking', () => {
    const p = page('complete', undefined, { queryState: homeState });
    p.storage['bookstore.cart'] = JSON.stringify([emma]);
    const add = addToCart('b1', 'Dune');
    p.fire('click', add);
    p.fire('click', add); // a second tap while waiting: nothing more
    expect(JSON.parse(p.storage['bookstore.cart']!)).toEqual([emma, dune]);
    expect(p.cartLink.attrs['aria-label']).toBe('Cart, 2 items');
    expect(add.attrs).toMatchObject({ 'data-added': '', 'data-queued': '' });
    // The count and the check mark: a style element in the head, outside what React hydrates.
    const style = p.added.find((el) => el.tag === 'style') as unknown as { textContent: string };
    expect(style.textContent).toContain('[data-testid=cart-count]::after{font-size:1rem;content:"2"}');
    expect(style.textContent).toContain('[data-book="b1"]::after{content:"\\2713"}');

    p.window.__early!.stop();
    expect(add.attrs).toEqual({ 'data-book': 'b1' }); // React hydrates its own markup
    expect(p.cartLink.attrs['aria-label']).toBe('Cart, 0 items');
    expect(style.textContent).not.toBe(''); // still showing the count until the app's render does
    const handed: unknown[] = [];
    p.window.__early!.replay((book) => handed.push(book));
    expect(handed).toEqual([dune]);
    expect(add.played).toEqual([]); // not clicked: the app would add it a second time
    expect(style.textContent).toBe('');
  });

  it('keeps the tap as any other when the book is in the cart already or not in the page\'s data', () => {
    const p = page('complete', undefined, { queryState: homeState });
    p.storage['bookstore.cart'] = JSON.stringify([dune]);
    const again = addToCart('b1', 'Dune');
    const unknown = addToCart('b9', 'Ulysses');
    p.fire('click', again);
    p.fire('click', unknown);
    expect(JSON.parse(p.storage['bookstore.cart']!)).toEqual([dune]);
    expect(p.cartLink.attrs).toEqual({ 'aria-label': 'Cart, 0 items' });
    expect(again.attrs).toEqual({ 'data-book': 'b1', 'data-queued': '' });
    p.window.__early!.stop();
    const handed: unknown[] = [];
    p.window.__early!.replay((book) => handed.push(book));
    expect(handed).toEqual([]);
    expect([again.played, unknown.played]).toEqual([['click'], ['click']]); // the app says 'Already in cart' as ever
  });

  it('keeps the tap as any other when the stored cart cannot be read', () => {
    const p = page('complete', undefined, { queryState: homeState });
    p.storage['bookstore.cart'] = '{not json';
    const add = addToCart('b1', 'Dune');
    p.fire('click', add);
    expect(add.attrs['data-added']).toBeUndefined();
    p.window.__early!.stop();
    p.window.__early!.replay();
    expect(add.played).toEqual(['click']);
  });

  it('answers a tap while the page is still being parsed at once, and stores the book once the page\'s data is parsed', () => {
    // A phone draws the first cards before the page's data (at its end) has arrived.
    const p = page('loading', undefined, { queryState: homeState });
    const add = addToCart('b1', 'Dune');
    const sameBook = addToCart('b1', 'Dune'); // the book again, in another list of the page
    const unknown = addToCart('b9', 'Ulysses');
    p.fire('click', add);
    p.fire('click', sameBook);
    expect(p.cartLink.attrs['aria-label']).toBe('Cart, 1 item');
    expect(add.attrs).toMatchObject({ 'data-added': '', 'data-queued': '' });
    expect(sameBook.attrs['data-added']).toBeUndefined();
    expect(p.storage['bookstore.cart']).toBeUndefined(); // nothing stored before the data is read
    p.fire('click', unknown);
    expect(p.cartLink.attrs['aria-label']).toBe('Cart, 2 items');
    const style = p.added.find((el) => el.tag === 'style') as unknown as { textContent: string };
    expect(style.textContent).toContain('content:"2"');

    p.document.readyState = 'interactive';
    p.listeners.DOMContentLoaded![0]!({ type: 'DOMContentLoaded', target: null, preventDefault() {} });
    expect(JSON.parse(p.storage['bookstore.cart']!)).toEqual([dune]); // the page's data lacks b9

    p.window.__early!.stop();
    const handed: unknown[] = [];
    p.window.__early!.replay((book) => handed.push(book));
    expect(handed).toEqual([dune]); // kept once, by the app
    expect(add.played).toEqual([]);
    expect(sameBook.played).toEqual(['click']); // the app says 'Already in cart' as ever
    expect(unknown.played).toEqual(['click']); // the app adds what the script could not
  });
});

describe('the start script in the CSP', () => {
  it('is the one inline script the CSP allows, by its hash (firebase.json)', () => {
    const hosting = JSON.parse(readFileSync(new URL('../../../firebase.json', import.meta.url), 'utf8')) as { hosting: { headers: { headers: { key: string; value: string }[] }[] } };
    const csp = hosting.hosting.headers.flatMap((rule) => rule.headers).filter((h) => h.key === 'Content-Security-Policy');
    expect(csp).toHaveLength(1);
    const scriptSrc = csp[0]!.value.split(';').map((d) => d.trim().split(/\s+/)).find(([name]) => name === 'script-src')!;
    const hash = createHash('sha256').update(START_SCRIPT).digest('base64');
    expect(scriptSrc.filter((source) => source.startsWith("'sha256-"))).toEqual([`'sha256-${hash}'`]);
  });
});
