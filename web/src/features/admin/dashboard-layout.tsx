import { buttonClass } from '../../components/ui/button';
import { ROLE_LABELS, type Permission } from '@bookstore/contract';
import { Suspense, useRef, useState } from 'react';
import { Link, Navigate, NavLink, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { usePageTitle } from '../../lib/use-page-title';
import { Logo, LogoutIcon, MenuIcon } from '../../components/ui/icons';
import { FullScreenSpinner } from '../../components/ui/spinner';
import { useDismiss } from '../../components/ui/use-dismiss';
import { adminToken, clearAdminSession } from '../../lib/admin-session';
import { alertBox } from '../../lib/notify';
import { adminLogout } from './api/admin-api';
import { useMe } from './api/staff-api';
import { downloadNewsletterCsv } from './api/stock-alerts';
import { ReauthDialog } from './components/reauth-dialog';

// Each link shows only to a role the policy table lets do it (contract/src/staff.ts); the server
// refuses the same things, this only keeps them out of sight.
const NAV: { to: string; label: string; end: boolean; icon: string; needs: Permission }[] = [
  { to: '/dashboard', label: 'Dashboard', end: true, icon: 'M3 12l9-9 9 9M5 10v10h5v-6h4v6h5V10', needs: 'reports.view' },
  { to: '/dashboard/counter', label: 'Counter', end: false, icon: 'M3 10h18M5 10V20h14V10M8 14h2M12 14h4M4 10l2-6h12l2 6', needs: 'sales.counter' },
  { to: '/dashboard/orders', label: 'Orders', end: false, icon: 'M9 5H7a2 2 0 0 0-2 2v12a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V7a2 2 0 0 0-2-2h-2M9 5a2 2 0 0 0 2 2h2a2 2 0 0 0 2-2M9 5a2 2 0 0 1 2-2h2a2 2 0 0 1 2 2M9 12h6M9 16h6', needs: 'orders.desk' },
  { to: '/dashboard/preorders', label: 'Pre-orders', end: false, icon: 'M8 2v4M16 2v4M4 5h16v16H4zM4 10h16M9 15l2 2 4-4', needs: 'orders.desk' },
  { to: '/dashboard/special-orders', label: 'Special Orders', end: false, icon: 'M4 4h16v11H4zM4 15l3 5h10l3-5M9 9h6', needs: 'orders.desk' },
  { to: '/dashboard/receiving', label: 'Receiving', end: false, icon: 'M3 7l9-4 9 4v10l-9 4-9-4zM3 7l9 4 9-4M12 11v10', needs: 'stock.receive' },
  { to: '/dashboard/purchasing', label: 'Purchasing', end: false, icon: 'M3 3h2l2 12h12l2-8H6M9 20h.01M18 20h.01', needs: 'purchasing.manage' },
  { to: '/dashboard/supplier-returns', label: 'Supplier Returns', end: false, icon: 'M9 14L4 9l5-5M4 9h11a5 5 0 0 1 0 10h-3', needs: 'purchasing.manage' },
  { to: '/dashboard/add-new-book', label: 'Add Book', end: false, icon: 'M12 5v14M5 12h14', needs: 'books.create' },
  { to: '/dashboard/manage-books', label: 'Documents', end: false, icon: 'M7 3h7l5 5v13H7zM14 3v5h5', needs: 'books.view' },
  { to: '/dashboard/import', label: 'Import Books', end: false, icon: 'M12 3v12M7 10l5 5 5-5M5 21h14', needs: 'books.import' },
  { to: '/dashboard/staff', label: 'Staff', end: false, icon: 'M16 21v-2a4 4 0 0 0-4-4H6a4 4 0 0 0-4 4v2M9 11a4 4 0 1 0 0-8 4 4 0 0 0 0 8M22 21v-2a4 4 0 0 0-3-3.9M16 3.1a4 4 0 0 1 0 7.8', needs: 'staff.manage' },
  { to: '/dashboard/settings', label: 'Shop Settings', end: false, icon: 'M3 9l2-5h14l2 5M3 9v11h18V9M3 9h18M9 20v-6h6v6', needs: 'settings.fulfilment' },
  { to: '/dashboard/discounts', label: 'Discounts', end: false, icon: 'M9 15l6-6M9.5 9.5h.01M14.5 14.5h.01M4 7V4h3l13 13-3 3L4 7', needs: 'promotions.manage' },
  { to: '/dashboard/gift-cards', label: 'Gift Cards', end: false, icon: 'M3 8h18v4H3zM5 12v9h14v-9M12 8v13M12 8c-2-4-6-4-6-1s6 1 6 1zm0 0c2-4 6-4 6-1s-6 1-6 1z', needs: 'promotions.manage' },
  { to: '/dashboard/audit', label: 'Audit Log', end: false, icon: 'M12 8v4l3 3M3 12a9 9 0 1 0 3-6.7L3 8M3 3v5h5', needs: 'audit.view' },
  { to: '/dashboard/payment-problems', label: 'Payment problems', end: false, icon: 'M2 7h20v12H2zM2 11h20M12 3v2M10 15h4', needs: 'orders.refund' },
  { to: '/dashboard/mail', label: 'Failed Mail', end: false, icon: 'M3 6h18v12H3zM3 6l9 7 9-7', needs: 'mail.failed' },
];

/** The signed-in person's name and role; opens Two-factor sign-in and Sign out. */
function ProfileMenu({ name, role, onSignOut }: { name: string; role: string; onSignOut: () => void }) {
  const [open, setOpen] = useState(false);
  const ref = useRef<HTMLDivElement>(null);
  useDismiss(ref, open, () => setOpen(false));
  return (
    <div ref={ref} className="relative">
      <button type="button" aria-haspopup="menu" aria-expanded={open} onClick={() => setOpen((o) => !o)} className="flex max-w-[12rem] items-center gap-3 rounded-md px-2 py-1 text-left hover:bg-gray-100">
        <span className="grid size-10 shrink-0 place-items-center rounded-full bg-accent-soft font-semibold text-accent" aria-hidden="true">{name.slice(0, 1).toUpperCase()}</span>
        <span className="min-w-0">
          <span className="block truncate font-semibold">{name}</span>
          <span className="block text-sm text-gray-600">{role}</span>
        </span>
      </button>
      {open && (
        <div role="menu" aria-label="Profile" className="absolute right-0 z-20 mt-2 w-56 rounded-md bg-white py-1 shadow-lg ring-1 ring-gray-200">
          <Link role="menuitem" to="/dashboard/profile" onClick={() => setOpen(false)} className="block px-4 py-2 hover:bg-gray-100">Two-factor sign-in</Link>
          <button role="menuitem" type="button" onClick={onSignOut} className="block w-full px-4 py-2 text-left hover:bg-gray-100">Sign out</button>
        </div>
      )}
    </div>
  );
}

/** The admin guard and shell: no stored token, straight to /admin. */
/** The confirmed newsletter addresses as a CSV file (owner, manager; issue 28). */
function NewsletterExportButton() {
  const [busy, setBusy] = useState(false);
  const exportCsv = async () => {
    setBusy(true);
    try {
      await downloadNewsletterCsv();
    } catch (error) {
      void alertBox('Export failed', (error as Error).message, 'error');
    } finally {
      setBusy(false);
    }
  };
  return (
    <button type="button" onClick={() => void exportCsv()} disabled={busy} className={buttonClass('secondary', 'md')}>
      {busy ? 'Exporting...' : 'Export Newsletter (CSV)'}
    </button>
  );
}

export function Component() {
  usePageTitle('Dashboard');
  const navigate = useNavigate();
  const [menuOpen, setMenuOpen] = useState(false);
  const me = useMe();
  const { pathname } = useLocation();
  if (!adminToken()) return <Navigate to="/admin" replace />;
  // Until the shop's two-factor rule is met, only the profile page (enrolment) works.
  if (me.data?.totpSetupRequired && pathname !== '/dashboard/profile') return <Navigate to="/dashboard/profile" replace />;
  // A role without the overview's figures starts at the order desk.
  if (me.data && pathname === '/dashboard' && !me.can('reports.view')) return <Navigate to="/dashboard/orders" replace />;
  const links = NAV.filter((item) => me.can(item.needs));
  const logout = () => {
    const token = adminToken();
    // Best effort: the server revokes the token; whatever it answers, this browser forgets it now.
    if (token) void adminLogout(token).catch(() => undefined);
    clearAdminSession();
    navigate('/admin');
  };
  const nav = (
    <>
      <a href="#" onClick={(e) => e.preventDefault()} aria-label="Folders" className="grid size-12 place-items-center rounded-lg text-gray-300 hover:bg-gray-700 hover:text-white">
        <svg width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true"><path d="M3 7h6l2 2h10v10H3z" /></svg>
      </a>
      {links.map((item) => (
        <NavLink
          key={item.to}
          to={item.to}
          end={item.end}
          onClick={() => setMenuOpen(false)}
          aria-label={item.label}
          title={item.label}
          className={({ isActive }) => `grid size-12 place-items-center rounded-lg ${isActive ? 'bg-primary text-secondary' : 'text-gray-300 hover:bg-gray-700 hover:text-white'}`}
        >
          <svg width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true"><path d={item.icon} /></svg>
        </NavLink>
      ))}
    </>
  );
  return (
    <div className="flex min-h-screen bg-gray-100">
      <aside className="hidden w-20 flex-col items-center bg-secondary sm:flex print:hidden">
        <Link to="/" aria-label="Back to the shop" className="grid h-20 w-20 place-items-center bg-secondary"><Logo className="size-10" /></Link>
        <nav aria-label="Dashboard" className="flex flex-1 flex-col items-center gap-4 py-6">{nav}</nav>
        <Link to="/dashboard/profile" aria-label="Settings" title="Settings" className="mb-6 grid size-12 place-items-center rounded-lg text-gray-300 hover:bg-gray-700 hover:text-white">
          <svg width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true"><circle cx="12" cy="12" r="3" /><path d="M19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1z" /></svg>
        </Link>
      </aside>
      <div className="min-w-0 flex-1">
        <header className="flex h-20 items-center gap-3 bg-white px-4 sm:px-10 print:hidden">
          <button type="button" aria-label="Open menu" aria-expanded={menuOpen} onClick={() => setMenuOpen((o) => !o)} className="grid size-10 place-items-center rounded-full text-gray-600 hover:bg-gray-100 sm:hidden">
            <MenuIcon className="size-6" />
          </button>
          <div className="ml-auto flex items-center gap-2 sm:gap-3">
            {me.data && <ProfileMenu name={me.data.displayName} role={ROLE_LABELS[me.data.role]} onSignOut={logout} />}
            <span className="h-8 border-l border-gray-200" aria-hidden="true" />
            <button type="button" onClick={logout} aria-label="Log out" className="grid size-10 place-items-center rounded-full text-gray-500 hover:bg-gray-100">
              <LogoutIcon className="size-6" />
            </button>
          </div>
        </header>
        {menuOpen && (
          <nav aria-label="Dashboard menu" className="flex flex-wrap items-center gap-2 bg-secondary px-4 py-2 sm:hidden print:hidden">{nav}</nav>
        )}
        <ReauthDialog totpEnabled={me.data?.totpEnabled ?? false} />
        <main className="space-y-6 p-4 sm:p-10">
          <div className="flex flex-col justify-between gap-4 md:flex-row md:items-end print:hidden">
            <div>
              <h1 className="mb-2 text-3xl font-bold md:text-4xl">Dashboard</h1>
              <h2 className="text-gray-700">Book Store Inventory</h2>
            </div>
            <div className="flex flex-wrap gap-3">
              {me.can('books.view') && <Link to="/dashboard/manage-books" className={buttonClass('secondary', 'md')}>Manage Books</Link>}
              {me.can('books.create') && <Link to="/dashboard/add-new-book" className={buttonClass('primary', 'md')}>Add New Book</Link>}
              {me.can('newsletter.export') && <NewsletterExportButton />}
            </div>
          </div>
          <Suspense fallback={<FullScreenSpinner />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
    </div>
  );
}
