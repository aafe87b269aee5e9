import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { START_SCRIPT } from './start-script';

interface Element { tag: string; attrs: Record<string, string>; setAttribute(k: string, v: string): void }

/** Runs the script against a page stand-in whose events, frames and timers the test fires by hand. */
function page(readyState: 'loading' | 'interactive' | 'complete', data: Record<string, string> = { 'data-entry': '/assets/index-1.js', 'data-preload': '/assets/react-2.js /assets/home-3.js' }) {
  const added: Element[] = [];
  const listeners: Record<string, () => void> = {};
  const frames: (() => void)[] = [];
  const timers: { run: () => void; ms: number }[] = [];
  const document = {
    currentScript: { getAttribute: (name: string) => data[name] ?? null },
    readyState,
    head: { appendChild: (el: Element) => added.push(el) },
    createElement: (tag: string): Element => ({ tag, attrs: {}, setAttribute(k, v) { this.attrs[k] = v; } }),
  };
  new Function('document', 'addEventListener', 'requestAnimationFrame', 'setTimeout', START_SCRIPT)(
    document,
    (type: string, listener: () => void) => { listeners[type] = listener; },
    (frame: () => void) => frames.push(frame),
    (run: () => void, ms: number) => timers.push({ run, ms }),
  );
  return { added, listeners, frames, timers, document };
}

describe('the start script', () => {
  it('adds nothing before the load event, then the preloads and the entry after a frame and a task', () => {
    const p = page('loading');
    expect(p.added).toEqual([]);
    p.listeners.load!();
    expect(p.added).toEqual([]);
    p.frames.shift()!();
    p.timers.find((t) => t.ms === 0)!.run();
    expect(p.added.map((el) => [el.tag, el.attrs])).toEqual([
      ['link', { rel: 'modulepreload', crossorigin: '', href: '/assets/react-2.js' }],
      ['link', { rel: 'modulepreload', crossorigin: '', href: '/assets/home-3.js' }],
      ['script', { type: 'module', crossorigin: '', src: '/assets/index-1.js' }],
    ]);
  });

  it('starts 3 s on whatever still loads, once the document is parsed, and only once', () => {
    const p = page('loading');
    p.document.readyState = 'interactive'; // parsed; a picture is still loading
    p.timers.find((t) => t.ms === 3000)!.run();
    expect(p.added.filter((el) => el.tag === 'script')).toHaveLength(1);
    p.listeners.load!();
    p.frames.shift()!();
    p.timers.find((t) => t.ms === 0)!.run();
    expect(p.added.filter((el) => el.tag === 'script')).toHaveLength(1);
  });

  it('never starts on a half-parsed document: at 3 s it waits for DOMContentLoaded', () => {
    const p = page('loading');
    p.timers.find((t) => t.ms === 3000)!.run();
    expect(p.added).toEqual([]);
    p.listeners.DOMContentLoaded!();
    expect(p.added.filter((el) => el.tag === 'script')).toHaveLength(1);
  });

  it('waits only for a frame when the page has already loaded', () => {
    const p = page('complete', { 'data-entry': '/assets/index-1.js' });
    expect(p.listeners.load).toBeUndefined();
    p.frames.shift()!();
    p.timers.find((t) => t.ms === 0)!.run();
    expect(p.added.map((el) => el.tag)).toEqual(['script']);
  });

  it('is the one inline script the CSP allows, by its hash (firebase.json)', () => {
    const hosting = JSON.parse(readFileSync(new URL('../../../firebase.json', import.meta.url), 'utf8')) as { hosting: { headers: { headers: { key: string; value: string }[] }[] } };
    const csp = hosting.hosting.headers.flatMap((rule) => rule.headers).filter((h) => h.key === 'Content-Security-Policy');
    expect(csp).toHaveLength(1);
    const scriptSrc = csp[0]!.value.split(';').map((d) => d.trim().split(/\s+/)).find(([name]) => name === 'script-src')!;
    const hash = createHash('sha256').update(START_SCRIPT).digest('base64');
    expect(scriptSrc.filter((source) => source.startsWith("'sha256-"))).toEqual([`'sha256-${hash}'`]);
  });
});
