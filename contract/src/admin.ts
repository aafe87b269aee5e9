import { z } from 'zod';

export const MAX_PASSWORD_BYTES = 1024;

/**
 * The one spelling of an admin's name: lower case, 1 to 64 of [a-z0-9._-], starting with a letter
 * or digit. The login lookup, the login throttle and `npm run create-admin` all use this string,
 * so `Admin`, ` admin ` and `admin` are one account with one counter, and `admin/` is no one.
 */
export const AdminUsernameSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9][a-z0-9._-]{0,63}$/, 'Use 1 to 64 lower-case letters, digits, dots, dashes or underscores');
export type AdminUsername = z.infer<typeof AdminUsernameSchema>;

/** The canonical form of a typed username, or null when it cannot name any admin. */
export function canonicalAdminUsername(value: string): string | null {
  const result = AdminUsernameSchema.safeParse(value);
  return result.success ? result.data : null;
}

// The login form's fields: any non-empty username is accepted here and answered like a wrong
// password when it is not canonical (no hint about which names exist or are well-formed).
export const AdminLoginSchema = z
  .object({
    username: z.string({ error: 'Username is required' }).trim().min(1, 'Username is required').max(100),
    password: z
      .string({ error: 'Password is required' })
      .min(1, 'Password is required')
      .refine((value) => utf8Length(value) <= MAX_PASSWORD_BYTES, 'Password is too long'),
  })
  .strip();
export type AdminLogin = z.infer<typeof AdminLoginSchema>;

function utf8Length(value: string): number {
  return new TextEncoder().encode(value).length;
}

export interface AdminLoginResponse {
  message: string;
  token: string;
  user: { username: string; role: 'admin' };
}

export interface MonthlySales {
  month: string; // YYYY-MM
  totalSales: number;
  totalOrders: number;
}

export interface AdminStats {
  totalBooks: number;
  totalSales: number;
  trendingBooks: number;
  totalOrders: number;
  monthlySales: MonthlySales[];
}
