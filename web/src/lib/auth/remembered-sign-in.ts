// Remembered sign-in: only then does the first page load the auth SDK without being asked to.
// The one owner of the flag: the context reads it, the SDK calls write it.
const REMEMBER_KEY = 'bookstore.signedIn';

export function rememberedSignIn(): boolean {
  try {
    return localStorage.getItem(REMEMBER_KEY) === '1';
  } catch {
    return false;
  }
}

export function rememberSignIn(on: boolean): void {
  try {
    if (on) localStorage.setItem(REMEMBER_KEY, '1');
    else localStorage.removeItem(REMEMBER_KEY);
  } catch {
    /* storage unavailable */
  }
}
