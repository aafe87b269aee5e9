import ReceiptPrinterEncoder from '@point-of-sale/receipt-printer-encoder';
import { maskedGiftCardCode, moneyLabel, PAYMENT_METHOD_LABELS, SHOP_TIME_ZONE, shopDay, type Sale } from '@bookstore/contract';
import qrcode from 'qrcode-generator';
import { escapeHtml } from '../../lib/html';

// A counter sale's receipt (issue 57), as pure functions of (sale, shop, options): the same sale
// gives the same bytes, so the ESC/POS output is compared with saved reference files
// (functions/test/fixtures/receipts/, receipt.test.ts). `receiptContent` says what a receipt holds;
// `escposReceipt` (the receipt printer), `htmlReceipt` (the printable 80 mm page) and `receiptMail`
// lay the same content out.

export interface ReceiptShop {
  name: string;
  /** The shop's address, one line per line (the pickup address of the fulfilment settings, as the order mails show it). */
  address: string;
}

/** The display name of MAIL_FROM ('Bookstore <orders@…>' -> 'Bookstore'): the name the shop's mail goes out under. */
export function shopNameOf(from: string): string {
  const named = /^\s*"?([^"<]*?)"?\s*</.exec(from)?.[1]?.trim();
  return named || 'Bookstore';
}

export interface ReceiptOptions {
  /** A reprint: says COPY, shows gift card codes masked and opens no drawer. */
  copy: boolean;
  /**
   * HOOK (gift card codes): the full code of a gift card sold on this sale, by the card's id, for
   * the original receipt only. Today a sale stores a card's id and last 4 alone (the code's hash
   * is the id), so the caller passes nothing and even the original shows the code masked; once
   * codes can be recovered for a receipt (receipts.repo.ts, `fullGiftCardCodes`), pass them here.
   */
  giftCardCodes?: ReadonlyMap<string, string>;
}

export interface ReceiptLine {
  title: string;
  quantity: number;
  unitPrice: string;
  lineTotal: string;
  /** A gift card line: its code (original, when known) or its masked last 4. */
  giftCardCode?: string;
}

export interface ReceiptContent {
  shopName: string;
  addressLines: string[];
  copy: boolean;
  saleId: string;
  /** The till's time of the sale in the shop's time zone: 'YYYY-MM-DD HH:MM'. */
  soldAt: string;
  servedBy: string;
  lines: ReceiptLine[];
  total: string;
  /** Issue 57: a discount code taken off ('Discount SPRING10', '-$5.00'). */
  discount?: { label: string; amount: string };
  /** Issue 57: a gift card's part ('Gift card ••••ABCD', '$20.00'), and what was left for `paidBy`. */
  giftCardPaid?: { label: string; amount: string };
  due?: string;
  paidBy: string;
  tendered?: string;
  change?: string;
  /** Cash (original only): the printer opens the drawer. */
  openDrawer: boolean;
}

// Deterministic on any ICU: hours and minutes only, 24-hour, in the shop's zone.
const timeFormat = new Intl.DateTimeFormat('en-GB', { timeZone: SHOP_TIME_ZONE, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

export function receiptContent(sale: Sale, shop: ReceiptShop, options: ReceiptOptions): ReceiptContent {
  const cash = sale.payment.method === 'cash';
  return {
    shopName: shop.name,
    addressLines: shop.address.split(/\s*\n\s*/).map((l) => l.trim()).filter(Boolean),
    copy: options.copy,
    saleId: sale._id,
    soldAt: `${shopDay(sale.soldAt)} ${timeFormat.format(new Date(sale.soldAt))}`,
    servedBy: sale.by.name,
    lines: sale.lines.map((line) => {
      const base = { title: line.title, quantity: line.quantity, unitPrice: moneyLabel(line.unitPrice), lineTotal: moneyLabel(line.lineTotal) };
      if (line.kind !== 'gift_card') return base;
      const full = options.copy ? undefined : options.giftCardCodes?.get(line.giftCard.id);
      return { ...base, giftCardCode: full ?? maskedGiftCardCode(line.giftCard.last4) };
    }),
    ...(sale.discount ? { discount: { label: `Discount ${sale.discount.code}`, amount: `-${moneyLabel(sale.discount.amount)}` } } : {}),
    total: moneyLabel(sale.total),
    ...(sale.payment.giftCard ? { giftCardPaid: { label: `Gift card ${maskedGiftCardCode(sale.payment.giftCard.last4)}`, amount: moneyLabel(sale.payment.giftCard.amount) } } : {}),
    ...(sale.payment.giftCard && sale.due !== undefined && sale.payment.method !== 'gift_card' ? { due: moneyLabel(sale.due) } : {}),
    paidBy: PAYMENT_METHOD_LABELS[sale.payment.method],
    ...(cash && sale.payment.tendered !== undefined ? { tendered: moneyLabel(sale.payment.tendered) } : {}),
    ...(cash && sale.change !== undefined ? { change: moneyLabel(sale.change) } : {}),
    // A reprint opens no drawer: only the sale itself hands out change.
    openDrawer: cash && !options.copy,
  };
}

/** 80 mm paper, Font A: 42 columns on Epson TM-T88-class printers (48 on some; 42 fits both). */
export const RECEIPT_COLUMNS = 42;

// The bullet of a masked code is 0x07 in CP437, which some printers take as BEL: print asterisks.
const forPrinter = (text: string) => text.replace(/•/g, '*');

/** The receipt as ESC/POS bytes: starts with ESC @ (initialise); ends with ESC p (drawer kick) for a cash original. */
export function escposReceipt(c: ReceiptContent): Uint8Array {
  const e = new ReceiptPrinterEncoder({ language: 'esc-pos', columns: RECEIPT_COLUMNS, codepageMapping: 'epson' });
  e.initialize().codepage('auto');
  e.align('center').bold(true).size(2, 2).line(c.shopName).size(1, 1).bold(false);
  for (const line of c.addressLines) e.line(line);
  e.newline();
  if (c.copy) e.invert(true).bold(true).line(' COPY ').bold(false).invert(false).newline();
  e.align('left');
  e.line(`Sale ${c.saleId}`);
  e.line(c.soldAt);
  e.line(`Served by ${c.servedBy}`);
  e.rule();
  const rows = c.lines.flatMap((l) => [
    [l.title, ''],
    [`  ${l.quantity} x ${l.unitPrice}`, l.lineTotal],
    ...(l.giftCardCode ? [[`  Code ${forPrinter(l.giftCardCode)}`, '']] : []),
  ]);
  e.table([{ width: RECEIPT_COLUMNS - 12, overflow: 'wrap' }, { width: 11, marginLeft: 1, align: 'right' }], rows);
  e.rule();
  if (c.discount) e.table([{ width: RECEIPT_COLUMNS - 12 }, { width: 11, marginLeft: 1, align: 'right' }], [[c.discount.label, c.discount.amount]]);
  e.bold(true).table([{ width: RECEIPT_COLUMNS - 12 }, { width: 11, marginLeft: 1, align: 'right' }], [['TOTAL', c.total]]).bold(false);
  const paid = [
    ...(c.giftCardPaid ? [[forPrinter(c.giftCardPaid.label), c.giftCardPaid.amount]] : []),
    ...(c.giftCardPaid && c.paidBy === 'Gift card' ? [] : [[`Paid by ${c.paidBy}`, c.due ?? '']]),
    ...(c.tendered ? [['Tendered', c.tendered]] : []), ...(c.change ? [['Change', c.change]] : [])];
  e.table([{ width: RECEIPT_COLUMNS - 12 }, { width: 11, marginLeft: 1, align: 'right' }], paid);
  e.newline();
  e.align('center').qrcode(c.saleId, { model: 2, size: 6, errorlevel: 'm' });
  e.line('Thank you!');
  e.newline(2);
  e.cut();
  if (c.openDrawer) e.pulse();
  return e.encode();
}

/** The sale id as a QR code (SVG), as the printed receipt carries it. */
function qrSvg(value: string): string {
  const qr = qrcode(0, 'M');
  qr.addData(value);
  qr.make();
  return qr.createSvgTag({ cellSize: 3, margin: 2, scalable: true });
}

/** The receipt's body as HTML (the page and the mail share it). */
export function receiptBodyHtml(c: ReceiptContent): string {
  const rows = c.lines
    .map((l) => `<tr><td>${escapeHtml(l.title)}<br><small>${l.quantity} × ${escapeHtml(l.unitPrice)}</small>${l.giftCardCode ? `<br><small>Code ${escapeHtml(l.giftCardCode)}</small>` : ''}</td><td class="amount">${escapeHtml(l.lineTotal)}</td></tr>`)
    .join('');
  const paid = [
    ...(c.giftCardPaid ? [`<tr><td>${escapeHtml(c.giftCardPaid.label)}</td><td class="amount">${escapeHtml(c.giftCardPaid.amount)}</td></tr>`] : []),
    ...(c.giftCardPaid && c.paidBy === 'Gift card' ? [] : [`<tr><td>Paid by ${escapeHtml(c.paidBy)}</td><td class="amount">${escapeHtml(c.due ?? '')}</td></tr>`]),
    ...(c.tendered ? [`<tr><td>Tendered</td><td class="amount">${escapeHtml(c.tendered)}</td></tr>`] : []),
    ...(c.change ? [`<tr><td>Change</td><td class="amount">${escapeHtml(c.change)}</td></tr>`] : []),
  ].join('');
  return [
    `<header><h1>${escapeHtml(c.shopName)}</h1>${c.addressLines.map((l) => `<p>${escapeHtml(l)}</p>`).join('')}</header>`,
    ...(c.copy ? ['<p class="copy"><strong>COPY</strong></p>'] : []),
    `<p>Sale ${escapeHtml(c.saleId)}<br>${escapeHtml(c.soldAt)}<br>Served by ${escapeHtml(c.servedBy)}</p>`,
    `<table><tbody>${rows}${c.discount ? `<tr><td>${escapeHtml(c.discount.label)}</td><td class="amount">${escapeHtml(c.discount.amount)}</td></tr>` : ''}</tbody><tbody class="total"><tr><th scope="row">TOTAL</th><td class="amount"><strong>${escapeHtml(c.total)}</strong></td></tr></tbody><tbody>${paid}</tbody></table>`,
    `<div class="qr">${qrSvg(c.saleId)}</div>`,
    '<p class="thanks">Thank you!</p>',
  ].join('\n');
}

const PAGE_STYLE = [
  '@page { size: 80mm auto; margin: 0 }',
  'body { width: 72mm; margin: 0 auto; padding: 4mm 0; font: 12px/1.35 ui-monospace, monospace; color: #000 }',
  'header, .copy, .qr, .thanks { text-align: center }',
  'h1 { font-size: 18px; margin: 0 0 2px } p { margin: 4px 0 }',
  '.copy { font-size: 16px; border: 2px solid #000; padding: 2px }',
  'table { width: 100%; border-collapse: collapse; margin: 6px 0 } td, th { vertical-align: top; padding: 2px 0; text-align: left }',
  '.amount { text-align: right; white-space: nowrap } .total { border-top: 1px dashed #000; border-bottom: 1px dashed #000 }',
  '.qr svg { width: 30mm; height: 30mm }',
].join('\n');

/** The printable 80 mm page. */
export function htmlReceipt(c: ReceiptContent): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${c.copy ? 'COPY: ' : ''}Receipt ${escapeHtml(c.saleId)}</title>
<meta name="viewport" content="width=device-width">
<style>${PAGE_STYLE}</style></head>
<body>
${receiptBodyHtml(c)}
</body>
</html>
`;
}

/** The receipt as a mail: text and HTML (mail-queue.ts's MailDoc fields). */
export function receiptMail(c: ReceiptContent, to: string): { to: string; message: { subject: string; text: string; html: string } } {
  const text = [
    c.shopName,
    ...c.addressLines,
    '',
    `Sale ${c.saleId}`,
    c.soldAt,
    `Served by ${c.servedBy}`,
    '',
    ...c.lines.flatMap((l) => [`${l.title}`, `  ${l.quantity} x ${l.unitPrice}: ${l.lineTotal}`, ...(l.giftCardCode ? [`  Code ${l.giftCardCode}`] : [])]),
    '',
    ...(c.discount ? [`${c.discount.label}: ${c.discount.amount}`] : []),
    `TOTAL: ${c.total}`,
    ...(c.giftCardPaid ? [`${c.giftCardPaid.label}: ${c.giftCardPaid.amount}`] : []),
    ...(c.giftCardPaid && c.paidBy === 'Gift card' ? [] : [`Paid by ${c.paidBy}${c.due ? `: ${c.due}` : ''}`]),
    ...(c.tendered ? [`Tendered: ${c.tendered}`] : []),
    ...(c.change ? [`Change: ${c.change}`] : []),
    '',
    'Thank you!',
  ].join('\n');
  return { to, message: { subject: `Your receipt from ${c.shopName} (${c.soldAt})`, text, html: receiptBodyHtml(c) } };
}
