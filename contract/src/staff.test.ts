import { describe, expect, it } from 'vitest';
import { isCommonPassword } from './passwords';
import { can, PERMISSIONS, POLICY, ROLES, StaffCreateSchema, StaffPatchSchema } from './staff';

describe('the policy table', () => {
  it('gives the owner everything, the manager all but staff and settings, the bookseller the desk, stock and the counter', () => {
    expect(PERMISSIONS.every((p) => can('owner', p))).toBe(true);
    expect(PERMISSIONS.filter((p) => !can('manager', p))).toEqual(['staff.manage', 'settings.manage']);
    expect([...POLICY.bookseller].sort()).toEqual(['books.stock', 'books.view', 'orders.desk', 'orders.status', 'sales.counter', 'stock.receive']);
    for (const role of ROLES) expect(POLICY[role].every((p) => PERMISSIONS.includes(p))).toBe(true);
    expect(can('bookseller', 'books.delete')).toBe(false);
    expect(can('bookseller', 'books.price')).toBe(false);
    expect(can('bookseller', 'books.import')).toBe(false);
  });
});

describe('new staff passwords', () => {
  it.each([
    'password', 'password1234', 'Password!2024', '!!qwerty!!2024', 'passwordpassword', 'monkeymonkeymonkey',
    'aaaaaaaaaaaa', 'abababababab', '123456789012', 'abcdefghijkl', '987654321098', 'asdfghjklasd', 'Football1234',
  ])('refuses %s', (password) => {
    expect(isCommonPassword(password)).toBe(true);
  });

  it.each(['correct horse battery', 'bookshop-till-7-owl', 'Margins&Footnotes9'])('accepts %s', (password) => {
    expect(isCommonPassword(password)).toBe(false);
  });

  it('asks 12 characters and a password off the list', () => {
    const base = { username: 'Ada', displayName: ' Ada Lovelace ', role: 'manager' };
    expect(StaffCreateSchema.safeParse({ ...base, password: 'short-pw-1' }).error?.issues[0]?.message).toBe('Use at least 12 characters');
    expect(StaffCreateSchema.safeParse({ ...base, password: 'password1234' }).error?.issues[0]?.message).toBe('This password is too common: choose another');
    expect(StaffCreateSchema.parse({ ...base, password: 'bookshop-till-7-owl', extra: 1 })).toEqual({
      username: 'ada', displayName: 'Ada Lovelace', role: 'manager', password: 'bookshop-till-7-owl',
    });
    expect(StaffCreateSchema.safeParse({ ...base, role: 'admin', password: 'bookshop-till-7-owl' }).success).toBe(false);
  });

  it('refuses an empty patch', () => {
    expect(StaffPatchSchema.safeParse({}).success).toBe(false);
    expect(StaffPatchSchema.parse({ disabled: true })).toEqual({ disabled: true });
  });
});
