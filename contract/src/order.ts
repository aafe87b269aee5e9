import { z } from 'zod';
import { BookIdSchema } from './book';
import { parseMoneyInput } from './money';
import { text } from './text';

export const MAX_ORDER_ITEMS = 50;

export const AddressSchema = z
  .object({
    street: text('Street', 200),
    city: text('City', 100),
    country: text('Country', 100),
    state: text('State', 100),
    zipcode: text('Zipcode', 20),
  })
  .strip();

export const OrderInputSchema = z
  .object({
    name: text('Name', 100),
    email: z.email({ error: 'Email is not valid' }).max(254),
    // The spec's phone field is an <input type="number">, so either form arrives.
    phone: z
      .union([z.string(), z.number()], { error: 'Phone must be a phone number' })
      .transform((value) => String(value).trim())
      .refine((value) => /^\+?[0-9][0-9 -]{4,24}$/.test(value), 'Phone must be a phone number'),
    address: AddressSchema,
    productIDs: z
      .array(BookIdSchema, { error: 'productIDs must be a list of book ids' })
      .min(1, 'Choose at least one book')
      .max(MAX_ORDER_ITEMS, `An order holds at most ${MAX_ORDER_ITEMS} books`),
    totalPrice: z.unknown().transform((value, ctx) => {
      const dollars = parseMoneyInput(value);
      if (dollars === null || dollars < 0) {
        ctx.addIssue({ code: 'custom', message: 'totalPrice must be an amount with at most 2 decimals' });
        return z.NEVER;
      }
      return dollars;
    }),
  })
  .strip();
export type OrderInput = z.input<typeof OrderInputSchema>;
export type ParsedOrderInput = z.output<typeof OrderInputSchema>;

export const ORDER_STATUSES = ['pending', 'shipped', 'delivered', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export interface Order {
  _id: string;
  uid: string;
  name: string;
  email: string;
  phone: string;
  address: z.infer<typeof AddressSchema>;
  productIDs: string[];
  totalPrice: number;
  status: OrderStatus;
  createdAt: string;
}

/** Body of the 409 answer when the cart's prices changed since the client computed its total. */
export interface PriceChangedResponse {
  message: string;
  code: 'PRICE_CHANGED';
  totalPrice: number;
}
