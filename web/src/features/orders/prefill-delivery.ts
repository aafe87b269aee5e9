import type { Address, OrdersPage } from '@bookstore/contract';
import { useQuery } from '@tanstack/react-query';
import { useEffect, type RefObject } from 'react';
import { apiFetch } from '../../lib/api-client';
import { authSdk } from '../../lib/auth/auth-context';
import { myOrdersKey } from './get-orders';

/**
 * Checkout's pre-fill: name and phone from the customer's latest order (GET /api/orders?limit=1, one
 * document read; nothing extra is stored), and its address handed to `onFilled` (the checkout's address
 * is chosen from lists, so it fills its own fields). Only empty fields are filled, so nothing the
 * customer has typed is overwritten. Through the API, not Firestore: checkout does not need the
 * Firestore SDK for one read.
 */
export function usePrefillFromLatestOrder(form: RefObject<HTMLFormElement | null>, uid: string | undefined, onFilled?: (address?: Address) => void) {
  const { data } = useQuery({
    queryKey: [...myOrdersKey, 'latest-delivery', uid],
    enabled: !!uid,
    staleTime: 60_000,
    queryFn: async () => {
      const token = await (await authSdk()).idToken();
      const page = await apiFetch<OrdersPage>('/api/orders?limit=1', { token });
      return page.orders[0] ?? null;
    },
  });
  useEffect(() => {
    const el = form.current;
    if (!data || !el) return;
    const values: Record<string, string> = { name: data.name, phone: data.phone };
    for (const [name, value] of Object.entries(values)) {
      const input = el.elements.namedItem(name);
      if (input instanceof HTMLInputElement && !input.value && value) input.value = value;
    }
    onFilled?.(data.address);
  }, [data, form]); // eslint-disable-line react-hooks/exhaustive-deps -- onFilled is read when the data arrives
}
