import type { Response } from 'express';
import type { ReceiptFormat } from '@bookstore/contract';
import { noStore } from '../../lib/cache';

/**
 * A till printout (a sale's receipt, a shift's or day's Z-report), never cached: ESC/POS bytes as a
 * download named `<name>.bin` for the receipt printer, or the printable 80 mm page. Only the asked
 * format is laid out.
 */
export function sendPrintout(res: Response, format: ReceiptFormat, name: string, layout: { escpos: () => Uint8Array; html: () => string }): void {
  noStore(res);
  if (format === 'escpos') {
    res.status(200).type('application/octet-stream').setHeader('Content-Disposition', `attachment; filename="${name}.bin"`);
    res.end(Buffer.from(layout.escpos()));
    return;
  }
  res.status(200).type('text/html; charset=utf-8').send(layout.html());
}
