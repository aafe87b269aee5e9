// The admin token and when it expires, in localStorage: the expiry survives a closed tab.
// The lifetime is the server's (`expiresIn` of POST /api/auth/admin), never a second copy here.
const KEY = 'bookstore.admin';

export interface AdminSession {
  token: string;
  expiresAt: number;
}

export function readAdminSession(): AdminSession | null {
  try {
    const value = JSON.parse(localStorage.getItem(KEY) ?? 'null') as AdminSession | null;
    return value && typeof value.token === 'string' && typeof value.expiresAt === 'number' ? value : null;
  } catch {
    return null;
  }
}

/** The stored token if it has not expired yet. */
export function adminToken(now = Date.now()): string | null {
  const session = readAdminSession();
  return session && session.expiresAt > now ? session.token : null;
}

export function saveAdminSession(token: string, expiresInSeconds: number, now = Date.now()): AdminSession {
  const session = { token, expiresAt: now + expiresInSeconds * 1000 };
  localStorage.setItem(KEY, JSON.stringify(session));
  window.dispatchEvent(new Event('bookstore:admin-session'));
  return session;
}

export function clearAdminSession(): void {
  localStorage.removeItem(KEY);
  window.dispatchEvent(new Event('bookstore:admin-session'));
}
