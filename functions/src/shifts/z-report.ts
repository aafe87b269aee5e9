import ReceiptPrinterEncoder from '@point-of-sale/receipt-printer-encoder';
import { PAYMENT_METHOD_LABELS, PETTY_CASH_LABELS, RETURN_METHOD_LABELS, SHOP_TIME_ZONE, shopDay, type Shift } from '@bookstore/contract';
import { RECEIPT_COLUMNS, type ReceiptShop } from '../sales/receipts/receipt';
import { escapeHtml } from '../lib/html';

// The Z-report of a shift, or of a shop day's shifts (issue 57), as pure functions of (shifts, shop,
// options), like a sale's receipt (sales/receipts/receipt.ts): the same shifts give the same bytes,
// compared with saved reference files (functions/test/fixtures/z-reports/, z-report.test.ts).
// `zReportContent` says what the report holds; `escposZReport` (the receipt printer) and
// `htmlZReport` (the printable 80 mm page) lay it out. A report with a shift still open is an
// X-report, as shops call it: the figures so far, not final.

export interface ZReportRow {
  label: string;
  amount: string;
  /** A part of the row above (a payment method, a pay-out's reason): indented. */
  detail?: boolean;
  /** The cash lines the drawer is checked by: bold. */
  strong?: boolean;
}

export interface ZReportBlock {
  title: string;
  lines: string[];
  rows: ZReportRow[];
}

export interface ZReportContent {
  shopName: string;
  addressLines: string[];
  /** Every shift in it closed: a Z-report; else an X-report. */
  final: boolean;
  /** 'Shift <id>' or 'Day YYYY-MM-DD'. */
  scope: string;
  blocks: ZReportBlock[];
  /** When it was made, in the shop's zone: 'YYYY-MM-DD HH:MM'. */
  printedAt: string;
}

export interface ZReportOptions {
  /** The day's report (every till's shifts of `day`, with the day's totals); else one shift's. */
  day?: string;
  /** The time of the print (ISO); the report names it. */
  now: string;
}

// Deterministic on any ICU: hours and minutes only, 24-hour, in the shop's zone (as the receipts).
const timeFormat = new Intl.DateTimeFormat('en-GB', { timeZone: SHOP_TIME_ZONE, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
const at = (iso: string) => `${shopDay(iso)} ${timeFormat.format(new Date(iso))}`;

const cents = (dollars: number) => Math.round(dollars * 100);
const label = (c: number) => `${c < 0 ? '-' : ''}$${(Math.abs(c) / 100).toFixed(2)}`;
const signed = (c: number) => (c > 0 ? `+${label(c)}` : label(c));

/** The methods in the labels' order, then any other the data names (sorted): the same rows for the same figures. */
/** Refunds by how they went back; a gift card's part of a sale went back on it (issue 57). */
const REFUND_LABELS: Record<string, string> = { ...RETURN_METHOD_LABELS, gift_card: 'Back on gift card' };

function methodRows(byMethod: Record<string, number>, labels: Record<string, string>): ZReportRow[] {
  const known = Object.keys(labels);
  const keys = [...known, ...Object.keys(byMethod).filter((k) => !known.includes(k)).sort()];
  return keys.map((k) => ({ label: labels[k] ?? k, amount: label(byMethod[k] ?? 0), detail: true }));
}

interface Totals {
  float: number;
  salesCount: number;
  sales: Record<string, number>;
  refundsCount: number;
  refunds: Record<string, number>;
  payIns: number;
  payOuts: number;
  expected: number;
  /** Of the closed shifts only. */
  counted: number;
  variance: number;
  closed: number;
}

const zero = (): Totals => ({ float: 0, salesCount: 0, sales: {}, refundsCount: 0, refunds: {}, payIns: 0, payOuts: 0, expected: 0, counted: 0, variance: 0, closed: 0 });

/** Adds a shift's figures (dollars on the wire) to the totals, in cents. */
function addShift(t: Totals, s: Shift): Totals {
  const into = (target: Record<string, number>, from: Record<string, number>) => {
    for (const [k, v] of Object.entries(from)) target[k] = (target[k] ?? 0) + cents(v);
  };
  t.float += cents(s.float);
  t.salesCount += s.figures.sales.count;
  into(t.sales, s.figures.sales.byMethod);
  t.refundsCount += s.figures.refunds.count;
  into(t.refunds, s.figures.refunds.byMethod);
  t.payIns += cents(s.figures.payIns);
  t.payOuts += cents(s.figures.payOuts);
  t.expected += cents(s.figures.expected);
  if (s.status === 'closed') {
    t.closed += 1;
    t.counted += cents(s.counted ?? 0);
    t.variance += cents(s.variance ?? 0);
  }
  return t;
}

const sum = (byMethod: Record<string, number>) => Object.values(byMethod).reduce((a, b) => a + b, 0);
const varianceLabel = (c: number) => (c === 0 ? 'Variance' : c > 0 ? 'Variance (over)' : 'Variance (short)');

/** The figures' rows: float, sales and refunds by method, petty cash, the expected cash, and the count once closed. */
function figureRows(t: Totals, petty: Shift['pettyCash'] | null, countedLabel: string): ZReportRow[] {
  const reasons = (kind: 'pay_in' | 'pay_out') => (petty ?? []).filter((p) => p.kind === kind).map((p) => ({ label: p.reason, amount: label(cents(p.amount)), detail: true }));
  return [
    { label: 'Float', amount: label(t.float) },
    { label: `Sales (${t.salesCount})`, amount: label(sum(t.sales)) },
    ...methodRows(t.sales, PAYMENT_METHOD_LABELS),
    { label: `Refunds (${t.refundsCount})`, amount: label(sum(t.refunds)) },
    ...methodRows(t.refunds, REFUND_LABELS),
    { label: `${PETTY_CASH_LABELS.pay_in}s`, amount: label(t.payIns) },
    ...reasons('pay_in'),
    { label: `${PETTY_CASH_LABELS.pay_out}s`, amount: label(t.payOuts) },
    ...reasons('pay_out'),
    { label: 'Expected cash', amount: label(t.expected), strong: true },
    ...(t.closed > 0 ? [{ label: countedLabel, amount: label(t.counted) }, { label: varianceLabel(t.variance), amount: signed(t.variance), strong: true }] : []),
  ];
}

function shiftBlock(s: Shift): ZReportBlock {
  return {
    title: `Till ${s.tillId}`,
    lines: [
      `Shift ${s._id}`,
      `Opened ${at(s.openedAt)} by ${s.openedBy}`,
      s.status === 'closed' ? `Closed ${at(s.closedAt ?? s.openedAt)} by ${s.closedBy ?? ''}` : 'Still open: figures so far',
    ],
    rows: figureRows(addShift(zero(), s), s.pettyCash, 'Counted'),
  };
}

export function zReportContent(shifts: Shift[], shop: ReceiptShop, options: ZReportOptions): ZReportContent {
  const blocks = shifts.map(shiftBlock);
  if (options.day !== undefined) {
    const totals = shifts.reduce(addShift, zero());
    const open = shifts.length - totals.closed;
    blocks.push({
      title: 'Day totals',
      lines: [shifts.length === 0 ? 'No shift was opened this day.' : `${shifts.length} shift${shifts.length === 1 ? '' : 's'}${open ? `, ${open} still open` : ''}`],
      rows: shifts.length === 0 ? [] : figureRows(totals, null, open ? 'Counted (closed shifts)' : 'Counted'),
    });
  }
  return {
    shopName: shop.name,
    addressLines: shop.address.split(/\s*\n\s*/).map((l) => l.trim()).filter(Boolean),
    final: shifts.every((s) => s.status === 'closed'),
    scope: options.day !== undefined ? `Day ${options.day}` : `Shift ${shifts[0]?._id ?? ''}`,
    blocks,
    printedAt: at(options.now),
  };
}

const title = (c: ZReportContent) => (c.final ? 'Z-REPORT' : 'X-REPORT');
const NOT_FINAL = 'Not final: a shift is still open';
const AMOUNT = 11;

/** The report as ESC/POS bytes: starts with ESC @ (initialise), ends with a cut; opens no drawer. */
export function escposZReport(c: ZReportContent): Uint8Array {
  const e = new ReceiptPrinterEncoder({ language: 'esc-pos', columns: RECEIPT_COLUMNS, codepageMapping: 'epson' });
  e.initialize().codepage('auto');
  e.align('center').bold(true).size(2, 2).line(c.shopName).size(1, 1).bold(false);
  for (const line of c.addressLines) e.line(line);
  e.newline();
  e.invert(true).bold(true).line(` ${title(c)} `).bold(false).invert(false);
  e.line(c.scope);
  if (!c.final) e.bold(true).line(NOT_FINAL).bold(false);
  e.align('left');
  const amount = { width: AMOUNT, marginLeft: 1, align: 'right' as const };
  const columns = [{ width: RECEIPT_COLUMNS - AMOUNT - 1, overflow: 'wrap' as const }, amount];
  // A detail's label wraps under itself, indented.
  const detail = [{ width: 2 }, { width: RECEIPT_COLUMNS - AMOUNT - 3, overflow: 'wrap' as const }, amount];
  for (const block of c.blocks) {
    e.rule();
    e.bold(true).line(block.title).bold(false);
    for (const line of block.lines) e.line(line);
    for (const row of block.rows) {
      if (row.strong) e.bold(true);
      if (row.detail) e.table(detail, [['', row.label, row.amount]]);
      else e.table(columns, [[row.label, row.amount]]);
      if (row.strong) e.bold(false);
    }
  }
  e.rule();
  e.line(`Printed ${c.printedAt}`);
  e.newline(2);
  e.cut();
  return e.encode();
}

// The receipt page's look (receipt.ts), with the report's sections and rows.
const PAGE_STYLE = [
  '@page { size: 80mm auto; margin: 0 }',
  'body { width: 72mm; margin: 0 auto; padding: 4mm 0; font: 12px/1.35 ui-monospace, monospace; color: #000 }',
  'header, .kind { text-align: center }',
  'h1 { font-size: 18px; margin: 0 0 2px } h2 { font-size: 13px; margin: 0 } p { margin: 4px 0 }',
  '.kind { font-size: 16px; border: 2px solid #000; padding: 2px }',
  'section { border-top: 1px dashed #000; padding-top: 4px; margin-top: 6px }',
  'table { width: 100%; border-collapse: collapse; margin: 4px 0 } td, th { vertical-align: top; padding: 1px 0; text-align: left; font-weight: normal }',
  '.detail th { padding-left: 2ch } .strong th, .strong td { font-weight: bold }',
  '.amount { text-align: right; white-space: nowrap }',
  'footer { border-top: 1px dashed #000; margin-top: 6px }',
].join('\n');

/** The printable 80 mm page. */
export function htmlZReport(c: ZReportContent): string {
  const row = (r: ZReportRow) => {
    const cls = [r.detail ? 'detail' : '', r.strong ? 'strong' : ''].filter(Boolean).join(' ');
    return `<tr${cls ? ` class="${cls}"` : ''}><th scope="row">${escapeHtml(r.label)}</th><td class="amount">${escapeHtml(r.amount)}</td></tr>`;
  };
  const sections = c.blocks.map((b) => [
    `<section><h2>${escapeHtml(b.title)}</h2>`,
    b.lines.length ? `<p>${b.lines.map(escapeHtml).join('<br>')}</p>` : '',
    b.rows.length ? `<table><tbody>${b.rows.map(row).join('')}</tbody></table>` : '',
    '</section>',
  ].join(''));
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${title(c)} ${escapeHtml(c.scope)}</title>
<meta name="viewport" content="width=device-width">
<style>${PAGE_STYLE}</style></head>
<body>
<header><h1>${escapeHtml(c.shopName)}</h1>${c.addressLines.map((l) => `<p>${escapeHtml(l)}</p>`).join('')}</header>
<p class="kind"><strong>${title(c)}</strong></p>
<p>${escapeHtml(c.scope)}${c.final ? '' : `<br><strong>${NOT_FINAL}</strong>`}</p>
${sections.join('\n')}
<footer><p>Printed ${escapeHtml(c.printedAt)}</p></footer>
</body>
</html>
`;
}
