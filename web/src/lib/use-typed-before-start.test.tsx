// @vitest-environment happy-dom
import { act, useState } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useTypedBeforeStart } from './use-typed-before-start';

// Issue 60: a served field holds what was typed before the app started; the field's state starts
// from it at hydration, so a later render of the field (and what is sent) keeps it.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const sent: string[] = [];

function Signup() {
  const [email, setEmail] = useTypedBeforeStart('signup-email');
  const [renders, setRenders] = useState(0); // another state of the form: renders the field again
  return (
    <form onSubmit={(e) => { e.preventDefault(); sent.push(email); }}>
      <input id="signup-email" aria-label="Email" value={email} onChange={(e) => setEmail(e.target.value)} />
      <button type="button" onClick={() => setRenders((n) => n + 1)}>{`Rendered ${renders}`}</button>
      <button type="submit">Subscribe</button>
    </form>
  );
}

const input = () => document.getElementById('signup-email') as HTMLInputElement;
const press = (name: RegExp) => act(() => [...document.querySelectorAll('button')].find((b) => name.test(b.textContent ?? ''))!.click());

afterEach(() => {
  sent.length = 0;
  document.body.innerHTML = '';
});

describe('useTypedBeforeStart', () => {
  it('keeps and sends what was typed into the served field before hydration, through later renders, with no hydration warning', async () => {
    document.body.innerHTML = `<div id="root">${renderToString(<Signup />)}</div>`;
    input().value = 'early@example.com'; // typed before the app starts
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    await act(async () => {
      hydrateRoot(document.getElementById('root')!, <Signup />);
    });
    await press(/Rendered/); // a render of the form that is not a keystroke
    expect(input().value).toBe('early@example.com');
    await press(/Subscribe/);
    expect(sent).toEqual(['early@example.com']);
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
  });

  it('starts empty in a field the app draws itself, whatever an element with that id on the page holds', async () => {
    document.body.innerHTML = '<input id="signup-email" value="left@example.com"><div id="root"></div>';
    await act(async () => {
      createRoot(document.getElementById('root')!).render(<Signup />);
    });
    expect((document.querySelector('#root input') as HTMLInputElement).value).toBe('');
  });
});
