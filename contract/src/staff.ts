import { z } from 'zod';
import { ROLES } from './roles';
import { AdminUsernameSchema, MAX_PASSWORD_BYTES } from './admin';
import { CursorSchema } from './paging';
import { isCommonPassword } from './passwords';

// Staff accounts, their roles and THE policy table: every admin route asks `can(role, permission)`
// (functions/src/lib/auth.ts requirePermission; a book's fields: the write path, functions/src/books/book-writes.ts)
// and the dashboard hides what the same call refuses.
// Issue 24; docs/decisions/021-staff-accounts.md.

export { ROLES } from './roles';
export const RoleSchema = z.enum(ROLES, { error: 'Role must be owner, manager or bookseller' });
export type Role = z.infer<typeof RoleSchema>;

export const ROLE_LABELS: Record<Role, string> = { owner: 'Owner', manager: 'Manager', bookseller: 'Bookseller' };

export const PERMISSIONS = [
  'books.view', // the dashboard's book list
  'books.create',
  'books.edit', // title, author, description, category, trending, ISBN, cover of an existing book
  'books.price', // old and new price
  'books.stock', // the stock count
  'books.delete',
  'books.import',
  'books.covers', // uploading a cover image
  'orders.desk', // the order desk, an order's details, a customer's orders
  'orders.status', // moving an order on (confirm, ship, deliver, cancel, refuse)
  'orders.refund', // refunding an order, by card through Stripe or in cash (issue 35)
  'reports.view', // the overview's sales figures
  'audit.view',
  'staff.manage',
  'settings.manage', // the staff rules (two-factor sign-in)
  'settings.fulfilment', // pickup, delivery methods, postage and tax (issue 27)
  'newsletter.export', // the confirmed newsletter addresses, as CSV (issue 28)
  'mail.failed', // the mail the shop could not send (issue 36)
  'sales.counter', // the Counter: sell at the till, take returns, the day's takings (issue 39)
  'promotions.manage', // discount codes and gift cards (issue 40)
  'purchasing.manage', // suppliers, purchase orders, returns to suppliers, costs and the stock's value (issue 56)
  'stock.receive', // receiving a delivery (issue 56)
  'terminal.readers', // registering and removing the tills' Stripe Terminal card readers (issue 57)
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** Role -> what it may do. The one table; nothing else grants a permission. */
export const POLICY: Readonly<Record<Role, readonly Permission[]>> = {
  owner: PERMISSIONS,
  manager: [
    'books.view', 'books.create', 'books.edit', 'books.price', 'books.stock', 'books.delete', 'books.import', 'books.covers',
    'orders.desk', 'orders.status', 'orders.refund', 'reports.view', 'audit.view', 'newsletter.export', 'settings.fulfilment', 'mail.failed', 'sales.counter',
    'promotions.manage', 'purchasing.manage', 'stock.receive', 'terminal.readers',
  ],
  bookseller: ['books.view', 'books.stock', 'orders.desk', 'orders.status', 'sales.counter', 'stock.receive'],
};

export function can(role: Role, permission: Permission): boolean {
  return POLICY[role].includes(permission);
}

/** Roles that must have two-factor sign-in on before acting, once the shop setting asks for it. */
export const TOTP_REQUIRED_ROLES: readonly Role[] = ['owner', 'manager'];

export const MIN_STAFF_PASSWORD_LENGTH = 12;

/**
 * A new staff password: 12 characters at least, and not a common password (nor one padded with
 * digits or symbols, nor a repetition): contract/src/passwords.ts. Passwords stored before the
 * rule (the local demo owner's `admin123`) still sign in; the rule applies to new ones.
 */
export const StaffPasswordSchema = z
  .string({ error: 'Password is required' })
  .min(MIN_STAFF_PASSWORD_LENGTH, `Use at least ${MIN_STAFF_PASSWORD_LENGTH} characters`)
  .refine((value) => new TextEncoder().encode(value).length <= MAX_PASSWORD_BYTES, 'Password is too long')
  .refine((value) => !isCommonPassword(value), 'This password is too common: choose another');

export const DisplayNameSchema = z
  .string({ error: 'Display name is required' })
  .trim()
  .min(1, 'Display name is required')
  .max(80, 'Display name is at most 80 characters');

// POST /api/admin/staff
export const StaffCreateSchema = z
  .object({
    username: AdminUsernameSchema,
    displayName: DisplayNameSchema,
    role: RoleSchema,
    password: StaffPasswordSchema,
  })
  .strip();
export type StaffCreate = z.infer<typeof StaffCreateSchema>;

// PATCH /api/admin/staff/:username (a new password, a role change, disabling and a two-factor
// reset also end that person's sessions)
export const StaffPatchSchema = z
  .object({
    displayName: DisplayNameSchema.optional(),
    role: RoleSchema.optional(),
    disabled: z.boolean({ error: 'disabled must be true or false' }).optional(),
    password: StaffPasswordSchema.optional(),
    /** Turns their two-factor sign-in off (a lost phone); they can set it up again after signing in. */
    resetTotp: z.literal(true, { error: 'resetTotp can only be true' }).optional(),
  })
  .strip()
  .refine((patch) => Object.values(patch).some((v) => v !== undefined), 'Nothing to change');
export type StaffPatch = z.infer<typeof StaffPatchSchema>;

/** A staff member as the API shows them (never a hash or a secret). */
export interface StaffMember {
  username: string;
  displayName: string;
  role: Role;
  disabled: boolean;
  totpEnabled: boolean;
}

/** GET /api/admin/me */
export interface Me extends StaffMember {
  permissions: Permission[];
  /** True when the shop requires two-factor sign-in of this role and it is not on yet: only enrolment works. */
  totpSetupRequired: boolean;
}

export interface StaffMutationResponse {
  message: string;
  staff: StaffMember;
}

export const OtpSchema = z
  .string({ error: 'Enter the 6-digit code' })
  .trim()
  .regex(/^[0-9]{6}$/, 'Enter the 6-digit code');

// POST /api/admin/me/totp/confirm, DELETE /api/admin/me/totp
export const OtpBodySchema = z.object({ otp: OtpSchema }).strip();

/** POST /api/admin/me/totp */
export interface TotpEnrolment {
  /** Base32 (RFC 4648), for typing into an app by hand. */
  secret: string;
  otpauthUrl: string;
}

// Shop settings (settings/shop): GET/PUT /api/admin/settings, owner only.
export const ShopSettingsSchema = z
  .object({ requireTotp: z.boolean({ error: 'requireTotp must be true or false' }) })
  .strip();
export type ShopSettings = z.infer<typeof ShopSettingsSchema>;
export const DEFAULT_SHOP_SETTINGS: ShopSettings = { requireTotp: false };

// Error codes the dashboard switches on.
export const OTP_REQUIRED = 'OTP_REQUIRED';
export const TOTP_SETUP_REQUIRED = 'TOTP_SETUP_REQUIRED';
/** 401: a sensitive action needs a proof (password, plus the code when enrolled) from the last few minutes. */
export const REAUTH_REQUIRED = 'REAUTH_REQUIRED';
export const REAUTH_MESSAGE = 'Confirm your password to continue';
/** How long a proof (a sign-in, or POST /api/auth/admin/reauth) lets sensitive actions through (issue 36). */
export const PROOF_MAX_AGE_MS = 5 * 60 * 1000;

// POST /api/auth/admin/reauth {password, otp?}: the signed-in person proves it is still them.
export const ReauthSchema = z
  .object({
    password: z
      .string({ error: 'Password is required' })
      .min(1, 'Password is required')
      .refine((value) => new TextEncoder().encode(value).length <= MAX_PASSWORD_BYTES, 'Password is too long'),
    otp: OtpSchema.optional(),
  })
  .strip();
export type Reauth = z.infer<typeof ReauthSchema>;

export interface ReauthResponse {
  message: string;
  /** Milliseconds since the epoch until which sensitive actions go through without asking again. */
  validUntil: number;
}

// ---- Audit log ----------------------------------------------------------------------------------

export const AUDIT_ACTIONS = [
  'book.create', 'book.edit', 'book.price', 'book.stock', 'book.delete', 'book.import', 'cover.upload',
  'order.status', 'order.refund', 'order.payment-problem', 'special-order.status',
  'sale.create', 'sale.return',
  'staff.create', 'staff.update', 'staff.delete', 'staff.sign-out',
  // Issue 36: sign-ins, failed ones (of existing staff: a made-up name has no one to audit), and
  // the proofs that sensitive actions ask for.
  'staff.sign-in', 'staff.sign-in-failed', 'staff.reauth',
  'totp.start', 'totp.enable', 'totp.disable',
  'settings.update',
  'newsletter.export', 'cover.delete',
  'discount.create', 'discount.pause', 'giftcard.issue', // issue 40
  'supplier.create', 'supplier.update', 'purchase-order.create', 'purchase-order.send', 'purchase-order.cancel', // issue 56
  'receipt.create', 'supplier-return.create',
  'mail.resend', // issue 58
  'giftcard.void', // issue 55
  'shift.open', 'shift.close', 'shift.pay-in', 'shift.pay-out', // issue 57
  'reader.create', 'reader.delete', 'sale.cancel', // issue 57
] as const;
export const AuditActionSchema = z.enum(AUDIT_ACTIONS, { error: 'Unknown action' });
export type AuditAction = z.infer<typeof AuditActionSchema>;

/** One changed field: JSON values; secrets and hashes appear only as '(changed)'. */
export interface FieldChange {
  before: unknown;
  after: unknown;
}

export interface AuditEvent {
  id: string;
  /** The staff member's username. */
  actor: string;
  /** Their role when they acted. */
  role: Role;
  action: AuditAction;
  /** What was acted on: `books/<id>`, `orders/<id>`, `sales/<id>`, `admins/<username>`, `settings/shop`, `covers/<name>`, `import`. */
  target: string;
  /** ISO 8601, server time. */
  at: string;
  /** Changed fields only: before and after. */
  changes: Record<string, FieldChange>;
  /**
   * The hash chain (issue 36): the event's place in the log, the hash of the one before and its own
   * (functions/src/admin/audit-chain.ts; `npm run audit:verify`). Absent on events from before it.
   */
  seq?: number;
  prevHash?: string;
  hash?: string;
  /**
   * Set by GET /api/admin/audit on an event without `seq` written after the chain began (issue 55):
   * the shop never writes one, so it was written around the shop (`npm run audit:verify` fails on it).
   */
  outOfChain?: true;
}

export const AUDIT_PAGE_SIZE = 50;

// GET /api/admin/audit?actor=&action=&cursor=&limit=
export const AuditQuerySchema = z
  .object({
    actor: AdminUsernameSchema.optional(),
    action: AuditActionSchema.optional(),
    cursor: CursorSchema.optional(),
    limit: z.coerce.number().int().min(1).max(100).default(AUDIT_PAGE_SIZE),
  })
  .strict();
export type AuditQuery = z.infer<typeof AuditQuerySchema>;

export interface AuditPage {
  events: AuditEvent[];
  nextCursor: string | null;
}
