import { Suspense, useState } from 'react';
import { Link, Navigate, NavLink, Outlet, useNavigate } from 'react-router-dom';
import { usePageTitle } from '../../app/use-page-title';
import { BellIcon, Logo, LogoutIcon, MenuIcon, SearchIcon } from '../../components/ui/icons';
import { FullScreenSpinner } from '../../components/ui/spinner';
import { adminToken, clearAdminSession } from '../../lib/admin-session';
import { adminLogout } from './api/admin-api';

const NAV = [
  { to: '/dashboard', label: 'Dashboard', end: true, icon: 'M3 12l9-9 9 9M5 10v10h5v-6h4v6h5V10' },
  { to: '/dashboard/orders', label: 'Orders', end: false, icon: 'M9 5H7a2 2 0 0 0-2 2v12a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V7a2 2 0 0 0-2-2h-2M9 5a2 2 0 0 0 2 2h2a2 2 0 0 0 2-2M9 5a2 2 0 0 1 2-2h2a2 2 0 0 1 2 2M9 12h6M9 16h6' },
  { to: '/dashboard/add-new-book', label: 'Add Book', end: false, icon: 'M12 5v14M5 12h14' },
  { to: '/dashboard/manage-books', label: 'Documents', end: false, icon: 'M7 3h7l5 5v13H7zM14 3v5h5' },
];

/** The admin guard and shell: no stored token, straight to /admin. */
export function Component() {
  usePageTitle('Dashboard');
  const navigate = useNavigate();
  const [menuOpen, setMenuOpen] = useState(false);
  if (!adminToken()) return <Navigate to="/admin" replace />;
  const logout = () => {
    const token = adminToken();
    // Best effort: the server revokes the token; whatever it answers, this browser forgets it now.
    if (token) void adminLogout(token).catch(() => undefined);
    clearAdminSession();
    navigate('/admin');
  };
  const nav = (
    <>
      <a href="#" onClick={(e) => e.preventDefault()} aria-label="Folders" className="grid size-12 place-items-center rounded-lg text-gray-400 hover:bg-gray-700 hover:text-white">
        <svg width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true"><path d="M3 7h6l2 2h10v10H3z" /></svg>
      </a>
      {NAV.map((item) => (
        <NavLink
          key={item.to}
          to={item.to}
          end={item.end}
          onClick={() => setMenuOpen(false)}
          aria-label={item.label}
          title={item.label}
          className={({ isActive }) => `grid size-12 place-items-center rounded-lg ${isActive ? 'bg-white text-purple-700' : 'text-gray-400 hover:bg-gray-700 hover:text-white'}`}
        >
          <svg width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true"><path d={item.icon} /></svg>
        </NavLink>
      ))}
    </>
  );
  return (
    <div className="flex min-h-screen bg-gray-100">
      <aside className="hidden w-20 flex-col items-center bg-gray-800 sm:flex">
        <Link to="/" aria-label="Back to the shop" className="grid h-20 w-20 place-items-center bg-purple-600"><Logo className="size-10" /></Link>
        <nav aria-label="Dashboard" className="flex flex-1 flex-col items-center gap-4 py-6">{nav}</nav>
        <button type="button" aria-label="Settings" className="mb-6 grid size-12 place-items-center rounded-lg text-gray-400 hover:bg-gray-700 hover:text-white">
          <svg width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true"><circle cx="12" cy="12" r="3" /><path d="M19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1z" /></svg>
        </button>
      </aside>
      <div className="min-w-0 flex-1">
        <header className="flex h-20 items-center gap-3 bg-white px-4 sm:px-10">
          <button type="button" aria-label="Open menu" aria-expanded={menuOpen} onClick={() => setMenuOpen((o) => !o)} className="grid size-10 place-items-center rounded-full text-gray-600 hover:bg-gray-100 sm:hidden">
            <MenuIcon className="size-6" />
          </button>
          <div className="relative hidden w-full max-w-md md:block">
            <label htmlFor="dashboard-search" className="sr-only">Search</label>
            <SearchIcon className="pointer-events-none absolute left-3 top-1/2 size-5 -translate-y-1/2 text-gray-500" />
            <input id="dashboard-search" type="search" placeholder="Search..." className="w-full rounded-md bg-gray-100 py-2 pl-10 pr-4 text-sm focus:bg-white focus:outline-2 focus:outline-purple-600" />
          </div>
          <div className="ml-auto flex items-center gap-3">
            <button type="button" className="flex items-center gap-3 rounded-md px-2 py-1 hover:bg-gray-100">
              <span className="sr-only md:hidden">User menu</span>
              <span className="hidden text-right md:block">
                <span className="block font-semibold">Grace Simmons</span>
                <span className="block text-sm text-gray-600">Lecturer</span>
              </span>
              <img src="/images/avatar.svg" alt="" width={40} height={40} className="size-10 rounded-full" />
            </button>
            <span className="h-8 border-l border-gray-200" aria-hidden="true" />
            <button type="button" aria-label="Notifications" className="relative grid size-10 place-items-center rounded-full text-gray-500 hover:bg-gray-100">
              <span className="absolute right-2 top-2 size-2 rounded-full bg-red-500" aria-hidden="true" />
              <BellIcon className="size-6" />
            </button>
            <button type="button" onClick={logout} aria-label="Log out" className="grid size-10 place-items-center rounded-full text-gray-500 hover:bg-gray-100">
              <LogoutIcon className="size-6" />
            </button>
          </div>
        </header>
        {menuOpen && (
          <nav aria-label="Dashboard menu" className="flex items-center gap-2 bg-gray-800 px-4 py-2 sm:hidden">{nav}</nav>
        )}
        <main className="space-y-6 p-4 sm:p-10">
          <div className="flex flex-col justify-between gap-4 md:flex-row md:items-end">
            <div>
              <h1 className="mb-2 text-4xl font-semibold">Dashboard</h1>
              <h2 className="text-gray-700">Book Store Inventory</h2>
            </div>
            <div className="flex flex-wrap gap-3">
              <Link to="/dashboard/manage-books" className="inline-flex rounded-md border border-purple-700 px-5 py-3 text-purple-700 hover:bg-purple-50">Manage Books</Link>
              <Link to="/dashboard/add-new-book" className="inline-flex rounded-md bg-purple-700 px-5 py-3 text-white hover:bg-purple-800">Add New Book</Link>
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
