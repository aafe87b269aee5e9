import type { Order, OrderStatus } from '@bookstore/contract';

/** How the desk offers each move (the contract's nextStatuses says which are allowed). */
export interface StatusAction {
  label: string;
  title: string;
  text: string;
  done: string;
  danger?: boolean;
  askNote?: boolean;
}

export const STATUS_ACTIONS: Partial<Record<OrderStatus, StatusAction>> = {
  confirmed: {
    label: 'Confirm',
    title: 'Confirm this order?',
    text: 'The customer sees it as confirmed. It can still be cancelled until it ships.',
    done: 'Order confirmed',
  },
  shipped: {
    label: 'Ship',
    title: 'Mark this order as shipped?',
    text: 'Once shipped it can no longer be cancelled, only delivered or refused at the door.',
    done: 'Order shipped',
  },
  delivered: {
    label: 'Mark delivered',
    title: 'Mark this order as delivered?',
    text: 'The books were handed over and the cash collected.',
    done: 'Order delivered',
  },
  cancelled: {
    label: 'Cancel',
    title: 'Cancel this order?',
    text: 'Its books go back in stock and it leaves the revenue figures.',
    done: 'Order cancelled',
    danger: true,
    askNote: true,
  },
  refused: {
    label: 'Refused at the door',
    title: 'Record a refusal at the door?',
    text: 'The customer did not take the parcel or pay. Its books go back in stock.',
    done: 'Refusal recorded',
    danger: true,
    askNote: true,
  },
};

/** A pickup order's moves (issue 27): put aside for the customer, then handed over at the counter. */
export const PICKUP_ACTIONS: Partial<Record<OrderStatus, StatusAction>> = {
  confirmed: STATUS_ACTIONS.confirmed,
  ready_for_pickup: {
    label: 'Ready for pickup',
    title: 'Is this order ready to collect?',
    text: "The customer is emailed the shop's address and opening hours; the books are held for the shop's hold days.",
    done: 'Customer told the order is ready',
  },
  collected: {
    label: 'Mark collected',
    title: 'Mark this order as collected?',
    text: 'The customer took the books and paid at the counter.',
    done: 'Order collected',
  },
  cancelled: { ...STATUS_ACTIONS.cancelled!, text: 'Its books go back on the shelf and it leaves the revenue figures.' },
};

export function actionFor(order: Pick<Order, 'delivery'>, to: OrderStatus): StatusAction | undefined {
  return (order.delivery?.method === 'pickup' ? PICKUP_ACTIONS : STATUS_ACTIONS)[to];
}
