// @vitest-environment happy-dom
import { act, useState, useSyncExternalStore } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { START_SCRIPT } from '../server/start-script';
import { stopEarlyInput, useReplayEarlyInput } from './early-input';

// The start script's queue and the app's replay together: a served page is tapped before the app
// starts, then hydrated, and each tap has exactly one effect (decision 038).

const effects: string[] = [];
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

function Shelf({ saved: initiallySaved = false }: { saved?: boolean }) {
  useReplayEarlyInput();
  const [genre, setGenre] = useState('');
  const [saved, setSaved] = useState(false);
  const [inStock, setInStock] = useState(false);
  return (
    <div>
      <button type="button" onClick={() => effects.push('add')}>Add to Cart</button>
      {/* Drawn 'Add' by the server; once hydrated it shows this browser's state (initiallySaved). */}
      <HydratedHeart saved={saved || initiallySaved} onToggle={() => { effects.push('heart'); setSaved((s) => !s); }} />
      <select aria-label="Genre" value={genre} onChange={(e) => { effects.push(`genre:${e.target.value}`); setGenre(e.target.value); }}>
        <option value="">Choose a genre</option>
        <option value="fiction">Fiction</option>
        <option value="horror">Horror</option>
      </select>
      <input type="checkbox" aria-label="In stock only" checked={inStock} onChange={(e) => { effects.push(`stock:${e.target.checked}`); setInStock(e.target.checked); }} />
      <p data-testid="state">{`${genre}|${saved}|${inStock}`}</p>
    </div>
  );
}

/** As the app's heart: the server's snapshot ('Add') while hydrating, this browser's state right after. */
function HydratedHeart({ saved, onToggle }: { saved: boolean; onToggle: () => void }) {
  const shown = useSyncExternalStore(() => () => {}, () => saved, () => false);
  return <button type="button" onClick={onToggle}>{shown ? 'Remove from wishlist' : 'Add to wishlist'}</button>;
}

/** The served page with the start script running on it (its entry never loads here). */
function serve(saved = false): HTMLElement {
  document.body.innerHTML = `<div id="root">${renderToString(<Shelf saved={saved} />)}</div>`;
  const script = { getAttribute: (name: string) => (name === 'data-entry' ? '/assets/index.js' : null) };
  const doc = { currentScript: script, readyState: 'complete', head: { appendChild() {} }, createElement: () => ({ setAttribute() {} }), getElementById: () => document.getElementById('root') };
  new Function('document', 'requestAnimationFrame', 'setTimeout', 'PerformanceObserver', START_SCRIPT)(doc, () => {}, () => {}, class { observe() {} disconnect() {} });
  return document.getElementById('root')!;
}

const button = (root: HTMLElement, name: RegExp) => [...root.querySelectorAll('button')].find((b) => name.test(b.textContent ?? ''))!;

async function start(root: HTMLElement, saved = false) {
  await act(async () => {
    stopEarlyInput();
    hydrateRoot(root, <Shelf saved={saved} />);
  });
  // The replay runs a task after the first commit; then its own renders.
  await act(async () => new Promise((resolve) => setTimeout(resolve, 20)));
}

const warnings: unknown[] = [];
const consoleError = console.error;
beforeEach(() => {
  console.error = (...args: unknown[]) => warnings.push(args[0]);
});

afterEach(() => {
  console.error = consoleError;
  warnings.length = 0;
  effects.length = 0;
  delete window.__early;
});

describe('taps before the app starts', () => {
  it('each has exactly one effect once the app owns the page, a double tap included', async () => {
    const root = serve();
    button(root, /Add to Cart/).click();
    button(root, /Add to Cart/).click();
    button(root, /Add to wishlist/).click();
    const select = root.querySelector('select')!;
    select.value = 'fiction';
    select.dispatchEvent(new Event('change', { bubbles: true }));
    select.value = 'horror';
    select.dispatchEvent(new Event('change', { bubbles: true }));
    (root.querySelector('input[type=checkbox]') as HTMLInputElement).click();
    expect(effects).toEqual([]); // nothing runs before the app
    expect(root.querySelectorAll('[data-queued]')).toHaveLength(4);

    await start(root);
    expect(warnings).toEqual([]); // the marks are gone before React hydrates

    expect(effects).toEqual(['add', 'heart', 'genre:horror', 'stock:true']);
    expect(root.querySelector('[data-testid=state]')!.textContent).toBe('horror|true|true');
    expect(root.querySelectorAll('[data-queued]')).toHaveLength(0);
    // After the start, taps are React's own: handled once, never replayed again.
    button(root, /Add to Cart/).click();
    await act(async () => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(effects.filter((e) => e === 'add')).toHaveLength(2);
  });

  it('a heart tapped as "Add" on a book this browser already saved is not toggled off', async () => {
    const root = serve(true);
    button(root, /Add to wishlist/).click();
    await start(root, true);
    expect(effects).toEqual([]);
    expect(button(root, /wishlist/).textContent).toBe('Remove from wishlist');
  });
});

// Issue 60: a tap on a drawn Add to Cart (`data-book`) is answered by the start script at once, and
// the app, handed the book at the replay, does not add it a second time; React hydrates its own markup.
const dune = { _id: 'b1', title: 'Dune', newPrice: 9.5, stock: 3 };
const readCart = (): { _id: string }[] => JSON.parse(localStorage.getItem('bookstore.cart') ?? '[]');
const cartStore = { subscribe: (f: () => void) => (addEventListener('cart', f), () => removeEventListener('cart', f)), count: () => readCart().length };

function Card({ onEarlyAdd }: { onEarlyAdd: (book: unknown) => void }) {
  useReplayEarlyInput(onEarlyAdd);
  // As the header: the server's snapshot (an empty cart) while hydrating, this browser's right after.
  const count = useSyncExternalStore(cartStore.subscribe, cartStore.count, () => 0);
  return (
    <div>
      <a href="/cart" aria-label={`Cart, ${count} ${count === 1 ? 'item' : 'items'}`}><span data-testid="cart-count">{count}</span></a>
      <button type="button" data-book="b1" onClick={() => effects.push('add')}>Add to Cart</button>
    </div>
  );
}

describe('Add to Cart before the app starts (issue 60)', () => {
  const handed: unknown[] = [];
  const onEarlyAdd = (book: unknown) => handed.push(book);
  afterEach(() => {
    localStorage.clear();
    handed.length = 0;
    document.head.innerHTML = '';
  });

  it('is answered at once, hydrates without a mismatch, and is handed to the app, not clicked', async () => {
    document.body.innerHTML = `<div id="root">${renderToString(<Card onEarlyAdd={onEarlyAdd} />)}</div>` +
      `<script type="application/json" id="query-state">${JSON.stringify({ queries: [{ state: { data: [dune] } }] })}</script>`;
    const script = { getAttribute: (name: string) => (name === 'data-entry' ? '/assets/index.js' : null) };
    // The page's document, but for the script element and the start, which never happens here.
    const doc = {
      currentScript: script, readyState: 'complete', head: document.head,
      querySelector: (s: string) => document.querySelector(s), getElementById: (id: string) => document.getElementById(id), createElement: (t: string) => document.createElement(t),
    };
    new Function('document', 'requestAnimationFrame', 'setTimeout', 'PerformanceObserver', START_SCRIPT)(doc, () => {}, () => {}, class { observe() {} disconnect() {} });
    const root = document.getElementById('root')!;

    button(root, /Add to Cart/).click();
    expect(readCart()).toEqual([dune]);
    expect(root.querySelector('a')!.getAttribute('aria-label')).toBe('Cart, 1 item');
    expect(document.head.querySelector('style')!.textContent).toContain('content:"1"');

    await act(async () => {
      stopEarlyInput();
      hydrateRoot(root, <Card onEarlyAdd={onEarlyAdd} />);
    });
    await act(async () => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(warnings).toEqual([]); // nothing React hydrates was left changed
    expect(handed).toEqual([dune]);
    expect(effects).toEqual([]); // not clicked
    expect(root.querySelector('a')!.getAttribute('aria-label')).toBe('Cart, 1 item'); // the app's own render now
    expect(root.querySelector('[data-testid=cart-count]')!.textContent).toBe('1');
    expect(document.head.querySelector('style')!.textContent).toBe('');
  });
});
