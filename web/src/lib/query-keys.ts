// The roots of every cached server read. A write invalidates the roots of what it changed, so a
// new query only has to sit under the right root to be refreshed by every writer (STYLE.md §6).
export const queryKeys = {
  /** Every book read: carousels, browse pages, search, suggestions, Manage Books, one book. */
  books: ['books'] as const,
  book: (id: string) => ['books', 'detail', id] as const,
  /** The dashboard overview's figures (GET /api/admin). */
  adminStats: ['admin-stats'] as const,
  /** The signed-in customer's orders: lists, pages, one order, the checkout's pre-fill. */
  myOrders: ['orders'] as const,
  /** Checkout quotes (POST /api/checkout/quote): a cart's subtotal, delivery methods, shipping and tax. */
  quotes: ['quotes'] as const,
  /** The shop's fulfilment settings (GET /api/admin/settings/fulfilment). */
  adminFulfilment: ['admin-fulfilment'] as const,
  /** A bookseller's counter allowance (GET /api/admin/settings/counter; issue 55). */
  adminCounterSettings: ['admin-counter-settings'] as const,
  /** The admin's order desk: lists with their tab counts, and single orders. */
  adminOrders: ['admin-orders'] as const,
  /** The signed-in staff member (GET /api/admin/me): name, role, permissions, two-factor state. */
  adminMe: ['admin-me'] as const,
  /** Staff accounts (GET /api/admin/staff). */
  adminStaff: ['admin-staff'] as const,
  /** Audit log pages (GET /api/admin/audit). */
  adminAudit: ['admin-audit'] as const,
  adminFailedMail: ['admin-failed-mail'] as const,
  /** Issue 54: the payment problems queue (GET /api/admin/payment-problems). */
  adminPaymentProblems: ['admin-payment-problems'] as const,
  adminWaitingMail: ['admin-waiting-mail'] as const,
  /** Counter sales (issue 39): a day's takings and list, one sale. */
  adminSales: ['admin-sales'] as const,
  /** The desk's pre-order lines and special orders (issue 41). */
  adminPreorders: ['admin-preorders'] as const,
  adminSpecialOrders: ['admin-special-orders'] as const,
  /** Buying (issue 56): suppliers, purchase orders, reorder suggestions, the stock's value. */
  adminPurchasing: ['admin-purchasing'] as const,
  /** The till's shifts (issue 57). */
  adminShifts: ['admin-shifts'] as const,
  /** The signed-in shopper's own special orders. */
  mySpecialOrders: ['special-orders', 'mine'] as const,
};
