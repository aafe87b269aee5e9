import type { createBrowserRouter, RouteObject } from 'react-router-dom';
import { StorefrontLayout } from './layout/storefront-layout';
import { NotFound, RouteError } from './routes/not-found';

type PageModule = NonNullable<RouteObject['lazy']>;

/** A layout's pages, path -> module ('' is the layout's index page). */
const pages = (table: Record<string, PageModule>): RouteObject[] =>
  Object.entries(table).map(([path, lazy]) => (path ? { path, lazy } : { index: true, lazy }));

// Every page is its own chunk; the dashboard's (charts, forms) never loads on storefront routes.
// Shared by the browser's router (app/start.tsx) and the server render (web/src/server/render.tsx).
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <StorefrontLayout />,
    errorElement: <RouteError />,
    children: [
      ...pages({
        '': () => import('./routes/home'),
        books: () => import('./routes/books'),
        'books/:id': () => import('./routes/book-detail'),
        cart: () => import('./routes/cart'),
        checkout: () => import('./routes/checkout'),
        orders: () => import('./routes/orders'),
        'orders/:id': () => import('./routes/order-detail'),
        login: () => import('./routes/login'),
        register: () => import('./routes/register'),
        about: () => import('./routes/about'),
        search: () => import('./routes/search'),
        wishlist: () => import('./routes/wishlist'),
        'special-orders': () => import('./routes/special-orders'),
        'newsletter/confirm': () => import('./routes/newsletter-confirm'),
        'newsletter/unsubscribe': () => import('./routes/mail-unsubscribe'),
        'stock-alerts/unsubscribe': () => import('./routes/mail-unsubscribe'),
      }),
      { path: '*', element: <NotFound /> },
    ],
  },
  { path: '/admin', lazy: () => import('../features/admin/admin-login'), errorElement: <RouteError /> },
  {
    path: '/dashboard',
    lazy: () => import('../features/admin/dashboard-layout'),
    errorElement: <RouteError />,
    children: pages({
      '': () => import('../features/admin/overview'),
      'add-new-book': () => import('../features/admin/add-book'),
      'edit-book/:id': () => import('../features/admin/edit-book'),
      'manage-books': () => import('../features/admin/manage-books'),
      orders: () => import('../features/admin/orders/order-desk'),
      'orders/:id': () => import('../features/admin/orders/order-page'),
      preorders: () => import('../features/admin/preorders/preorders-page'),
      'special-orders': () => import('../features/admin/special-orders/special-orders-page'),
      import: () => import('../features/admin/import/import-page'),
      staff: () => import('../features/admin/staff/staff-page'),
      audit: () => import('../features/admin/staff/audit-page'),
      mail: () => import('../features/admin/mail/failed-mail-page'),
      'payment-problems': () => import('../features/admin/payments/payment-problems-page'),
      profile: () => import('../features/admin/staff/profile-page'),
      settings: () => import('../features/admin/settings/fulfilment-page'),
      counter: () => import('../features/admin/counter/counter-page'),
      'counter/day': () => import('../features/admin/counter/day-end-page'),
      'counter/shifts': () => import('../features/admin/counter/shifts-page'),
      'counter/readers': () => import('../features/admin/counter/readers-page'), // issue 57
      'counter/sales/:id': () => import('../features/admin/counter/sale-page'),
      discounts: () => import('../features/admin/promotions/discounts-page'),
      'gift-cards': () => import('../features/admin/promotions/gift-cards-page'),
      purchasing: () => import('../features/admin/purchasing/purchasing-page'), // issue 56
      receiving: () => import('../features/admin/purchasing/receiving-page'),
      'supplier-returns': () => import('../features/admin/purchasing/supplier-returns-page'),
    }),
  },
];

export type AppRouter = ReturnType<typeof createBrowserRouter>;
