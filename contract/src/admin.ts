import { z } from 'zod';
import type { Book } from './book';
import type { Order, OrderCounts } from './order';

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
  totalSales: number; // dollars, orders of that month that are not cancelled or refused
  totalOrders: number; // orders of that month that are not cancelled or refused
}

/** A book running low, for the overview (stock at or below LOW_STOCK_THRESHOLD, lowest first). */
export type LowStockBook = Pick<Book, '_id' | 'title' | 'stock' | 'coverImage'>;

export const LOW_STOCK_LIST_SIZE = 5;
export const LATEST_ORDERS_SIZE = 5;

export interface AdminStats {
  totalBooks: number;
  /** Dollars; orders that are not cancelled or refused. */
  totalSales: number;
  trendingBooks: number;
  /** Orders that are not cancelled or refused. */
  totalOrders: number;
  monthlySales: MonthlySales[];
  /** pending + confirmed: what the desk still has to handle. */
  ordersToProcess: number;
  /** Orders per status (and `all`), from the same counters as the desk's tabs. */
  orderCounts: OrderCounts;
  /** Up to LOW_STOCK_LIST_SIZE books with stock <= LOW_STOCK_THRESHOLD, lowest stock first. */
  lowStockBooks: LowStockBook[];
  /** The LATEST_ORDERS_SIZE newest orders, newest first. */
  latestOrders: Order[];
}
