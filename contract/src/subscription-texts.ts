// Wishlist, back-in-stock and newsletter constants and texts both sides show, in a module without
// zod: the storefront's first load (the header's heart, the footer's form) imports them. Issue 28.

/** The most books one wishlist holds (firestore.rules refuses a longer `bookIds`). */
export const MAX_WISHLIST_BOOKS = 500;

/** The footer's answer to a newsletter sign-up: the address is not on the list until it is confirmed. */
export const NEWSLETTER_CHECK_INBOX = 'Thanks! Check your inbox: we sent you a link to confirm your subscription.';
/** POST /api/newsletter answers this whether or not the address is known (no enumeration). */
export const NEWSLETTER_REQUESTED = 'If this address can subscribe, a confirmation email is on its way.';
export const NEWSLETTER_CONFIRMED = 'Your subscription is confirmed. Thank you!';
export const NEWSLETTER_UNSUBSCRIBED = 'You are unsubscribed. You will not receive our newsletter any more.';
export const STOCK_ALERTS_UNSUBSCRIBED = 'Done. We will not send back-in-stock emails to this address any more.';
export const MAIL_LINK_INVALID = 'This link is not valid or has expired.';

/** POST /api/stock-alerts answers this whether or not the address was already waiting. */
export const STOCK_ALERT_REQUESTED = 'We will email you when this book is back in stock.';
export const STOCK_ALERT_IN_STOCK = 'This book is in stock: you can order it now.';
