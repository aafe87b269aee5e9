import type { OrderStatus } from '@bookstore/contract';

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
