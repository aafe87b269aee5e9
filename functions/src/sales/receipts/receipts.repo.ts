import { createHash } from 'node:crypto';
import { formatGiftCardCode, type Sale } from '@bookstore/contract';
import { readFulfilment } from '../../admin/settings.repo';
import { mailFrom } from '../../config';
import { db } from '../../lib/firebase';
import { queued } from '../../lib/mail-queue';
import { countReads } from '../../lib/read-counter';
import { MAIL_COLLECTION } from '../../orders/mail';
import { giftCardId } from '../../promotions/gift-cards.repo';
import { serverGiftCardCode } from '../gift-card-codes';
import { sales, toSale, type SaleDoc } from '../sales.repo';
import { receiptContent, receiptMail, shopNameOf, type ReceiptContent, type ReceiptShop } from './receipt';

// Receipts of counter sales (issue 57). A print is counted on the sale (`receiptPrints`) in a
// transaction, so of two prints at once exactly one is the original; every later print is a COPY.
// An emailed receipt is no print: it never shows a gift card's full code.

/** The sale's `receiptPrints` field: how many receipts were printed (absent: none yet). */
type PrintedSaleDoc = SaleDoc & { receiptPrints?: number };

/** The shop as its receipts name it: the mail's sender name and the pickup address of the fulfilment settings (as the order mails show it). */
export async function receiptShop(): Promise<ReceiptShop> {
  const fulfilment = await readFulfilment();
  return { name: shopNameOf(mailFrom.value()), address: fulfilment.pickup.address };
}

/**
 * The full codes of the gift cards the server made for a sale (issue 55: an HMAC of the sale's id
 * and the line, gift-card-codes.ts), by card id, for its original receipt: each is made again and
 * kept only when its hash is the card the line issued. A card sold on a code reserved for the till
 * is not the server's to repeat: its code was printed by the till, and shows masked here.
 */
export function fullGiftCardCodes(sale: Sale): ReadonlyMap<string, string> {
  const codes = new Map<string, string>();
  sale.lines.forEach((line, index) => {
    if (line.kind !== 'gift_card') return;
    const code = serverGiftCardCode(sale._id, `line ${index}`);
    if (giftCardId(code) === line.giftCard.id) codes.set(line.giftCard.id, formatGiftCardCode(code));
  });
  return codes;
}

/** Records one print of the sale's receipt and gives its content (COPY after the first), or null for no such sale. */
export async function printReceipt(saleId: string, shop: ReceiptShop): Promise<ReceiptContent | null> {
  const ref = sales().doc(saleId);
  return db().runTransaction(async (tx) => {
    const snap = await tx.get(ref);
    countReads(1);
    if (!snap.exists) return null;
    const doc = snap.data() as PrintedSaleDoc;
    const prints = doc.receiptPrints ?? 0;
    tx.update(ref, { receiptPrints: prints + 1 });
    const sale = toSale(snap.id, doc);
    return receiptContent(sale, shop, { copy: prints > 0, giftCardCodes: fullGiftCardCodes(sale) });
  });
}

/** The mail's id: one receipt mail per sale and address, so a retried request queues no second mail. */
export const receiptMailId = (saleId: string, email: string) => `${saleId}-receipt-${createHash('sha256').update(email).digest('hex').slice(0, 16)}`;

/** Queues the sale's receipt to `email` (lowercase); false for no such sale. A second request for the same address queues nothing more. */
export async function mailReceipt(saleId: string, email: string, shop: ReceiptShop): Promise<boolean> {
  const saleRef = sales().doc(saleId);
  const mailRef = db().collection(MAIL_COLLECTION).doc(receiptMailId(saleId, email));
  return db().runTransaction(async (tx) => {
    const [saleSnap, mailSnap] = await tx.getAll(saleRef, mailRef);
    countReads(2);
    if (!saleSnap!.exists) return false;
    if (mailSnap!.exists) return true;
    const content = receiptContent(toSale(saleSnap!.id, saleSnap!.data() as SaleDoc), shop, { copy: false });
    tx.create(mailRef, queued(receiptMail(content, email)));
    return true;
  });
}
