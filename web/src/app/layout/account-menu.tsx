import { useCallback, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { UserIcon } from '../../components/ui/icons';
import { useDismiss } from '../../components/ui/use-dismiss';
import { authSdk, useAuth } from '../../lib/auth/auth-context';

const LINKS = [
  { to: '/dashboard', label: 'Dashboard' },
  { to: '/orders', label: 'Orders' },
  { to: '/cart', label: 'Cart Page' },
  { to: '/checkout', label: 'Check Out' },
];

/** The user icon when signed out; the avatar and its dropdown when signed in. */
export function AccountMenu() {
  const { status, user } = useAuth();
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  const navigate = useNavigate();
  const close = useCallback(() => setOpen(false), []);
  useDismiss(ref, open, close);

  if (status !== 'signedIn' || !user) {
    return (
      <Link to="/login" aria-label="Sign in" className="grid size-10 place-items-center rounded-full hover:bg-gray-100">
        <UserIcon className="size-6" />
      </Link>
    );
  }
  const initial = (user.displayName || user.email || '?').slice(0, 1).toUpperCase();
  return (
    <div ref={ref} className="relative">
      <button
        type="button"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-label={`Account menu for ${user.email ?? 'you'}`}
        onClick={() => setOpen((o) => !o)}
        className="grid size-9 place-items-center rounded-full bg-secondary font-semibold text-white ring-2 ring-primary"
      >
        {initial}
      </button>
      {open && (
        <div role="menu" className="absolute right-0 z-40 mt-2 w-48 rounded-md border border-gray-200 bg-white py-1 shadow-lg">
          <p className="border-b border-gray-100 px-4 py-2 text-xs text-gray-600" data-testid="signed-in-as">
            Signed in as
            <span className="block truncate font-medium text-gray-900" title={user.email ?? undefined}>{user.email ?? user.displayName}</span>
          </p>
          {LINKS.map((link) => (
            <Link key={link.to} role="menuitem" to={link.to} onClick={close} className="block px-4 py-2 text-sm hover:bg-gray-100 focus:bg-gray-100">
              {link.label}
            </Link>
          ))}
          <button
            type="button"
            role="menuitem"
            className="block w-full px-4 py-2 text-left text-sm hover:bg-gray-100 focus:bg-gray-100"
            onClick={async () => {
              close();
              await (await authSdk()).signOut();
              navigate('/');
            }}
          >
            Logout
          </button>
        </div>
      )}
    </div>
  );
}
