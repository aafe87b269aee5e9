import { fromCents, looksLikeIsbn, MAX_GIFT_CARD_CENTS, parseMoneyInput, toCents, toIsbn13 } from '@bookstore/contract';
import { useState } from 'react';
import { ApiError } from '../../../lib/api-client';
import { money } from '../../../lib/format';
import { getCounterBook } from '../api/sales-api';
import { bookByIsbn, counterDb, keepBook } from './counter-store';
import { centsOf, lineId, type BookLine, type Line, type Notice } from './counter-lines';

/**
 * The sale being rung up: its lines and what the till says about the last thing scanned. A book is
 * found on the device's copy of the book list first (so the counter works offline), else asked of
 * the shop; the same book again is one more copy.
 */
export function useSaleLines() {
  const [lines, setLines] = useState<Line[]>([]);
  const [notice, setNotice] = useState<Notice>(null);
  const totalCents = lines.reduce((sum, l) => sum + l.quantity * centsOf(l.unitPrice), 0);

  const addBook = (book: Omit<BookLine, 'quantity' | 'kind'>) =>
    setLines((current) => {
      const at = current.findIndex((l) => l.kind === 'book' && l.bookId === book.bookId);
      if (at < 0) return [...current, { ...book, kind: 'book', quantity: 1 }];
      return current.map((l, i) => (i === at && l.kind === 'book' ? { ...l, quantity: Math.min(99, l.quantity + 1) } : l));
    });

  /** A gift card of the amount typed; false (and the till says why) when it is not an amount a card may hold. */
  const addGiftCard = (amount: string): boolean => {
    const dollars = parseMoneyInput(amount.trim());
    const cents = dollars === null ? null : toCents(dollars);
    if (cents === null || cents < 1 || cents > MAX_GIFT_CARD_CENTS) {
      setNotice({ tone: 'error', text: `A gift card's amount is from $0.01 to ${money(MAX_GIFT_CARD_CENTS / 100)}, such as 25 or 25.50.` });
      return false;
    }
    setLines((current) => [...current, { kind: 'gift_card', key: crypto.randomUUID(), unitPrice: fromCents(cents), quantity: 1 }]);
    setNotice(null);
    return true;
  };

  /** An ISBN scanned, typed or read by the camera (issue 57). */
  const addCode = async (typed: string) => {
    if (!typed) return;
    const isbn = toIsbn13(typed);
    if (!isbn) {
      setNotice({ tone: 'error', text: looksLikeIsbn(typed) ? `${typed} has a wrong check digit: scan it again or type it.` : `${typed} is not an ISBN: scan the barcode or type its 10 or 13 digits.` });
      return;
    }
    const db = await counterDb();
    const onDevice = await bookByIsbn(db, isbn);
    if (onDevice) {
      addBook({ bookId: onDevice._id, isbn, title: onDevice.title, author: onDevice.author, unitPrice: onDevice.price });
      setNotice(null);
      return;
    }
    // Not on the device's list (added since the last copy, or never copied): ask the shop.
    try {
      const { book } = await getCounterBook(isbn);
      await keepBook(db, book);
      addBook({ bookId: book._id, isbn, title: book.title, author: book.author, unitPrice: book.price });
      setNotice(null);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) setNotice({ tone: 'error', text: `No book in the catalogue has ISBN ${isbn}.`, unknownIsbn: isbn });
      else setNotice({ tone: 'error', text: `ISBN ${isbn} is not on this device's book list, and the shop cannot be reached to look it up. Sell it once the connection is back.` });
    }
  };

  const setQuantity = (id: string, quantity: number) =>
    setLines((current) => current.flatMap((l) => (lineId(l) !== id ? [l] : quantity <= 0 ? [] : l.kind === 'gift_card' ? [l] : [{ ...l, quantity: Math.min(99, quantity) }])));

  return { lines, setLines, notice, setNotice, totalCents, addCode, addGiftCard, setQuantity };
}

export type SaleLines = ReturnType<typeof useSaleLines>;
