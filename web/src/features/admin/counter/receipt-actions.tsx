import type { ReceiptEmailResponse } from '@bookstore/contract';
import { useState, type FormEvent } from 'react';
import { buttonClass, fieldClass } from '../../../components/ui/button';
import { adminToken } from '../../../lib/admin-session';
import { apiFetch } from '../../../lib/api-client';
import { printOnTill } from './till-print';
import { requestReceiptPrinter, usbSupported } from './usb-printer';

// After a sale (issue 57): 'Print Receipt' sends the shop's ESC/POS receipt to the receipt printer
// paired with this browser over WebUSB (docs/receipt-printer.md), which also opens a cash sale's
// drawer; without one it opens the shop's printable 80 mm page to print from the browser. The first
// print is the original, later ones say COPY (the shop counts them). 'Email Receipt' mails it.
// A sale made offline is not on the shop yet: its on-screen receipt prints as before.

export function ReceiptActions({ saleId, onServer }: { saleId: string; onServer: boolean }) {
  const [message, setMessage] = useState<{ tone: 'error' | 'info'; text: string } | null>(null);
  const [printing, setPrinting] = useState(false);
  const [emailing, setEmailing] = useState(false);
  const [email, setEmail] = useState('');

  if (!onServer) return <button type="button" onClick={() => window.print()} className={buttonClass('secondary', 'md')}>Print Receipt</button>;

  const print = async () => {
    setPrinting(true);
    setMessage(null);
    try {
      // GET /api/admin/sales/:id/receipt?format=escpos|html
      const done = await printOnTill((format) => `/api/admin/sales/${encodeURIComponent(saleId)}/receipt?format=${format}`, 'Could not reach the shop. Check the connection, or print the receipt on this screen.');
      if (done.via === 'printer') setMessage({ tone: 'info', text: done.response.headers.get('X-Receipt-Copy') === 'true' ? 'Printed a copy of the receipt.' : 'Printed the receipt.' });
      else if (done.via === 'blocked') setMessage({ tone: 'error', text: 'The browser blocked the receipt window: allow pop-ups for this site and try again.' });
      else setMessage({ tone: 'info', text: 'The receipt opened in a new window to print.' });
    } catch (error) {
      setMessage({ tone: 'error', text: error instanceof Error ? error.message : 'The receipt could not be printed.' });
    } finally {
      setPrinting(false);
    }
  };

  const send = async (event: FormEvent) => {
    event.preventDefault();
    setEmailing(true);
    setMessage(null);
    try {
      const res = await apiFetch<ReceiptEmailResponse>(`/api/admin/sales/${encodeURIComponent(saleId)}/email`, { method: 'POST', token: adminToken(), body: { email: email.trim() } });
      setMessage({ tone: 'info', text: res.message });
      setEmail('');
    } catch (error) {
      setMessage({ tone: 'error', text: error instanceof Error ? error.message : 'The receipt could not be sent.' });
    } finally {
      setEmailing(false);
    }
  };

  return (
    <div className="flex w-full flex-col gap-3">
      <div className="flex flex-wrap gap-3">
        <button type="button" disabled={printing} onClick={() => void print()} className={buttonClass('secondary', 'md')}>Print Receipt</button>
        {usbSupported() && <ConnectPrinter onResult={setMessage} />}
      </div>
      <form onSubmit={(e) => void send(e)} className="flex flex-wrap items-end gap-2">
        <div className="min-w-0 flex-1 basis-56">
          <label htmlFor="receipt-email" className="mb-1 block text-sm font-semibold text-gray-700">Customer&apos;s email</label>
          <input id="receipt-email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="off" required className={fieldClass} />
        </div>
        <button type="submit" disabled={emailing} className={buttonClass('secondary', 'md', 'h-11')}>Email Receipt</button>
      </form>
      {message && <p role={message.tone === 'error' ? 'alert' : 'status'} className={`rounded-md px-3 py-2 text-sm ${message.tone === 'error' ? 'bg-danger-soft text-danger' : 'bg-accent-soft text-secondary'}`}>{message.text}</p>}
    </div>
  );
}

/** Pairs a USB receipt printer with this browser (once per till; the browser remembers it). */
function ConnectPrinter({ onResult }: { onResult: (message: { tone: 'error' | 'info'; text: string }) => void }) {
  const connect = async () => {
    try {
      const name = await requestReceiptPrinter();
      if (name) onResult({ tone: 'info', text: `Receipt printer connected: ${name}. Print Receipt now prints on it.` });
    } catch (error) {
      onResult({ tone: 'error', text: error instanceof Error ? error.message : 'The printer could not be connected.' });
    }
  };
  return <button type="button" onClick={() => void connect()} className={buttonClass('secondary', 'md')}>Connect USB Printer</button>;
}
