import { APPROVAL_REFUSED, type Approval, type Sale } from '@bookstore/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { networkStatus } from '../../../lib/network-status';
import { useOnline } from '../../../lib/use-online';
import { getCounterBooks, postSale, useSalesChanged } from '../api/sales-api';
import { DELTA_EVERY_MS, syncCounterBooks } from './counter-books-sync';
import { countBooks, counterDb, queuedSales, readSyncState, removeQueued, putQueued, type QueuedSale } from './counter-store';
import { bodyToSend, flushQueue, sendQueued, type Outcome } from './sale-queue';
import { readTillId, reservedLeft, topUpReservedCodes } from './till';

// The counter's device side in one hook: the book list's copy (at open, every DELTA_EVERY_MS while
// open and online, and when the network comes back) and the sale queue (sent at once when a sale is
// made, then whenever the shop is online again and every RETRY_MS while sales wait).

export const RETRY_MS = 20_000;

const send = async (sale: QueuedSale) => (await postSale(bodyToSend(sale))).sale;

export interface CounterDevice {
  online: boolean;
  books: number;
  syncedAt: number | null;
  syncing: boolean;
  syncFailed: boolean;
  queue: QueuedSale[];
  /** Sales the server confirmed from the queue since the page opened (newest first). */
  synced: Sale[];
  /** Gift card codes the shop reserved for this till, left for selling offline (issue 55). */
  codes: number;
  /** Online: reserve codes for this till up to KEEP_RESERVED (after a sale, or a new till id). */
  topUpCodes(): Promise<void>;
  /** Queues the sale and tries to send it now. */
  sell(sale: QueuedSale): Promise<Outcome>;
  /** Sends a queued sale again; with a manager's approval (issue 55), which is never stored. */
  retry(saleId: string, approval?: Approval): Promise<Outcome | null>;
  remove(saleId: string): Promise<void>;
  refresh(): Promise<void>;
}

export function useCounterDevice(): CounterDevice {
  const online = useOnline();
  const salesChanged = useSalesChanged();
  const [books, setBooks] = useState(0);
  const [syncedAt, setSyncedAt] = useState<number | null>(null);
  const [syncing, setSyncing] = useState(false);
  const [syncFailed, setSyncFailed] = useState(false);
  const [queue, setQueue] = useState<QueuedSale[]>([]);
  const [synced, setSynced] = useState<Sale[]>([]);
  const [codes, setCodes] = useState(() => reservedLeft(readTillId()));
  const busy = useRef(false);

  const topUpCodes = useCallback(async () => {
    await topUpReservedCodes(readTillId()).catch(() => {}); // offline or refused: the codes kept stay as they are
    setCodes(reservedLeft(readTillId()));
  }, []);

  const readQueue = useCallback(async () => setQueue(await queuedSales(await counterDb())), []);

  const syncBooks = useCallback(async () => {
    if (busy.current) return;
    busy.current = true;
    setSyncing(true);
    const db = await counterDb();
    try {
      await syncCounterBooks(db, getCounterBooks);
      setSyncFailed(false);
    } catch {
      setSyncFailed(true); // offline or refused: the list on the device stays as it was
    } finally {
      busy.current = false;
      setSyncing(false);
      setBooks(await countBooks(db));
      setSyncedAt((await readSyncState(db)).syncedAt);
    }
  }, []);

  const flush = useCallback(async () => {
    const db = await counterDb();
    const { sent } = await flushQueue(db, send, (sale) => setSynced((list) => [sale, ...list]));
    await readQueue();
    if (sent > 0) salesChanged();
  }, [readQueue, salesChanged]);

  // Open: what the device has, then a copy and a flush if the shop can be reached.
  useEffect(() => {
    void (async () => {
      const db = await counterDb();
      setBooks(await countBooks(db));
      setSyncedAt((await readSyncState(db)).syncedAt);
      await readQueue();
    })();
  }, [readQueue]);

  // Online (at open, and each time the network comes back): copy what changed, send what waits.
  useEffect(() => {
    if (!online) return;
    // Then keep a few gift card codes reserved for this till, to sell a card offline (issue 55):
    // after the rest, so the first scans' lookups do not wait behind it.
    const now = setTimeout(() => void flush().then(syncBooks).then(topUpCodes), 0);
    const timer = setInterval(() => void syncBooks(), DELTA_EVERY_MS);
    return () => {
      clearTimeout(now);
      clearInterval(timer);
    };
  }, [online, flush, syncBooks, topUpCodes]);

  // While sales wait: try again now and then (a failed send marks the shop offline, and the
  // network status's probes bring it back; this also covers a server that was only busy).
  const waiting = queue.some((s) => s.state === 'waiting');
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => {
      if (networkStatus?.online() ?? true) void flush();
    }, RETRY_MS);
    return () => clearInterval(timer);
  }, [waiting, flush]);

  const sell = useCallback(async (sale: QueuedSale): Promise<Outcome> => {
    const db = await counterDb();
    await putQueued(db, sale);
    // Offline: straight to the queue (the request would only fail); it goes when the network returns.
    const outcome: Outcome = online ? await sendQueued(db, sale, send) : { kind: 'waiting', reason: 'offline' };
    // Refused at once: the customer is still at the till, so the sale did not happen; it leaves the queue.
    if (outcome.kind === 'refused') await removeQueued(db, sale.saleId);
    if (outcome.kind === 'synced') salesChanged();
    await readQueue();
    if (online) void topUpCodes();
    else setCodes(reservedLeft(readTillId()));
    return outcome;
  }, [online, readQueue, salesChanged, topUpCodes]);

  const retry = useCallback(async (saleId: string, approval?: Approval) => {
    const db = await counterDb();
    const sale = (await queuedSales(db)).find((s) => s.saleId === saleId);
    if (!sale) return null;
    const sender = approval ? async (s: QueuedSale) => (await postSale({ ...bodyToSend(s), approval })).sale : send;
    const outcome = await sendQueued(db, { ...sale, state: 'waiting' }, sender);
    // A wrong approval leaves the sale as it was (still waiting for one).
    if (approval && outcome.kind === 'refused' && outcome.error.body?.code === APPROVAL_REFUSED) await putQueued(db, sale);
    if (outcome.kind === 'waiting') await putQueued(db, { ...sale, state: 'waiting', problem: undefined });
    if (outcome.kind === 'synced') {
      setSynced((list) => [outcome.sale, ...list]);
      salesChanged();
    }
    await readQueue();
    return outcome;
  }, [readQueue, salesChanged]);

  const remove = useCallback(async (saleId: string) => {
    await removeQueued(await counterDb(), saleId);
    await readQueue();
  }, [readQueue]);

  return { online, books, syncedAt, syncing, syncFailed, queue, synced, codes, topUpCodes, sell, retry, remove, refresh: syncBooks };
}
