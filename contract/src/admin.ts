import { z } from 'zod';

export const MAX_PASSWORD_BYTES = 1024;

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
