import { adminToken } from '../../../lib/admin-session';
import { ApiError, classifyResponse } from '../../../lib/api-client';
import { pairedReceiptPrinter, printToUsb } from './usb-printer';

// Printing a shop document at the till (issue 57; docs/receipt-printer.md): a sale's receipt, a
// shift's or a day's Z-report. The shop answers the same path as ESC/POS bytes (`format=escpos`),
// sent as they are to the receipt printer paired with this browser over WebUSB, or as a printable
// 80 mm page (`format=html`), opened in a new window with the browser's print dialog.

export type PrintFormat = 'escpos' | 'html';

/** GET a printable document as bytes or text (apiFetch reads JSON); `unreachable` is the message when the shop cannot be reached. */
async function fetchPrintable(path: string, unreachable: string): Promise<Response> {
  const token = adminToken();
  const res = await fetch(path, { headers: token ? { Authorization: `Bearer ${token}` } : {}, credentials: 'same-origin' }).catch(() => {
    throw new ApiError('FETCH_ERROR', unreachable);
  });
  if (!res.ok) classifyResponse(res.status, await res.text());
  return res;
}

/** How it was printed: on the receipt printer (with the shop's answer, for its headers), on a page, or not (the browser blocked the window). */
export type TillPrint = { via: 'printer'; response: Response } | { via: 'page' } | { via: 'blocked' };

/** Prints `pathOf(format)` on the paired receipt printer, else as the printable page; throws ApiError when the shop refuses or cannot be reached. */
export async function printOnTill(pathOf: (format: PrintFormat) => string, unreachable: string): Promise<TillPrint> {
  // Opened now, while the click still counts as the user's: a window opened after a request is blocked.
  const printer = await pairedReceiptPrinter();
  const page = printer ? null : window.open('', '_blank');
  try {
    if (printer) {
      const response = await fetchPrintable(pathOf('escpos'), unreachable);
      await printToUsb(printer, new Uint8Array(await response.arrayBuffer()));
      return { via: 'printer', response };
    }
    const html = await (await fetchPrintable(pathOf('html'), unreachable)).text();
    if (!page) return { via: 'blocked' };
    // The shop's page written into the window this page opened (same origin, so the site's CSP applies to it too).
    page.document.open();
    page.document.write(html);
    page.document.close();
    page.focus();
    page.print();
    return { via: 'page' };
  } catch (error) {
    page?.close();
    throw error;
  }
}
