import type { createBrowserRouter, RouteObject } from 'react-router-dom';
import { StorefrontLayout } from './layout/storefront-layout';
import { NotFound, RouteError } from './routes/not-found';

// Every page is its own chunk; the dashboard's (charts, forms) never loads on storefront routes.
// Shared by the browser's router (router.tsx) and the build-time prerender (prerender.tsx).
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <StorefrontLayout />,
    errorElement: <RouteError />,
    children: [
      { index: true, lazy: () => import('./routes/home') },
      { path: 'books', lazy: () => import('./routes/books') },
      { path: 'books/:id', lazy: () => import('./routes/book-detail') },
      { path: 'cart', lazy: () => import('./routes/cart') },
      { path: 'checkout', lazy: () => import('./routes/checkout') },
      { path: 'orders', lazy: () => import('./routes/orders') },
      { path: 'orders/:id', lazy: () => import('./routes/order-detail') },
      { path: 'login', lazy: () => import('./routes/login') },
      { path: 'register', lazy: () => import('./routes/register') },
      { path: 'about', lazy: () => import('./routes/about') },
      { path: 'search', lazy: () => import('./routes/search') },
      { path: '*', element: <NotFound /> },
    ],
  },
  { path: '/admin', lazy: () => import('../features/admin/admin-login'), errorElement: <RouteError /> },
  {
    path: '/dashboard',
    lazy: () => import('../features/admin/dashboard-layout'),
    errorElement: <RouteError />,
    children: [
      { index: true, lazy: () => import('../features/admin/overview') },
      { path: 'add-new-book', lazy: () => import('../features/admin/add-book') },
      { path: 'edit-book/:id', lazy: () => import('../features/admin/edit-book') },
      { path: 'manage-books', lazy: () => import('../features/admin/manage-books') },
      { path: 'orders', lazy: () => import('../features/admin/orders/order-desk') },
      { path: 'orders/:id', lazy: () => import('../features/admin/orders/order-page') },
      { path: 'import', lazy: () => import('../features/admin/import/import-page') },
    ],
  },
];

export type AppRouter = ReturnType<typeof createBrowserRouter>;
