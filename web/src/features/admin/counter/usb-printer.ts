// A receipt printer on the till's USB port, over WebUSB (Chromium browsers; docs/receipt-printer.md).
// The printer is paired once with 'Connect USB Printer' (the browser's own chooser; it remembers the
// choice); then each receipt's ESC/POS bytes go to the printer's bulk OUT endpoint as they came from
// the shop. WebUSB is not in TypeScript's DOM types: the little used here is declared below.

interface UsbEndpoint { endpointNumber: number; direction: 'in' | 'out'; type: 'bulk' | 'interrupt' | 'isochronous' }
interface UsbAlternate { interfaceClass: number; endpoints: UsbEndpoint[] }
interface UsbInterface { interfaceNumber: number; claimed: boolean; alternate: UsbAlternate }
interface UsbConfiguration { interfaces: UsbInterface[] }
export interface UsbDevice {
  productName?: string;
  opened: boolean;
  configuration: UsbConfiguration | null;
  open(): Promise<void>;
  selectConfiguration(value: number): Promise<void>;
  claimInterface(number: number): Promise<void>;
  transferOut(endpoint: number, data: BufferSource): Promise<{ status: 'ok' | 'stall' | 'babble' }>;
}
interface Usb {
  getDevices(): Promise<UsbDevice[]>;
  requestDevice(options: { filters: { classCode?: number }[] }): Promise<UsbDevice>;
}

/** USB class 7: printers. Receipt printers (Epson, Star, and most ESC/POS clones) declare it. */
const PRINTER_CLASS = 7;

const usb = (): Usb | undefined => (typeof navigator !== 'undefined' ? (navigator as Navigator & { usb?: Usb }).usb : undefined);

export const usbSupported = () => !!usb();

/** The printer paired with this browser, if any. */
export async function pairedReceiptPrinter(): Promise<UsbDevice | null> {
  const api = usb();
  if (!api) return null;
  try {
    const devices = await api.getDevices();
    return devices.find((d) => !d.configuration || d.configuration.interfaces.some((i) => i.alternate.interfaceClass === PRINTER_CLASS)) ?? null;
  } catch {
    return null; // WebUSB blocked by policy: print the page instead
  }
}

/** Opens the browser's chooser of USB printers; the chosen one's name, or null when none was chosen. */
export async function requestReceiptPrinter(): Promise<string | null> {
  const api = usb();
  if (!api) throw new Error('This browser cannot reach USB printers: use Chrome or Edge, or print the receipt page.');
  try {
    const device = await api.requestDevice({ filters: [{ classCode: PRINTER_CLASS }] });
    return device.productName ?? 'USB printer';
  } catch (error) {
    if ((error as { name?: string }).name === 'NotFoundError') return null; // the chooser was closed
    throw error;
  }
}

/** Sends ESC/POS bytes to the printer's first bulk OUT endpoint. */
export async function printToUsb(device: UsbDevice, bytes: Uint8Array): Promise<void> {
  if (!device.opened) await device.open();
  if (!device.configuration) await device.selectConfiguration(1);
  const iface = device.configuration!.interfaces.find((i) => i.alternate.endpoints.some((e) => e.direction === 'out' && e.type === 'bulk'));
  const endpoint = iface?.alternate.endpoints.find((e) => e.direction === 'out' && e.type === 'bulk');
  if (!iface || !endpoint) throw new Error('The USB printer has no output for receipts: is it a receipt printer?');
  if (!iface.claimed) await device.claimInterface(iface.interfaceNumber);
  const result = await device.transferOut(endpoint.endpointNumber, bytes as Uint8Array<ArrayBuffer>);
  if (result.status !== 'ok') throw new Error(`The printer refused the receipt (${result.status}).`);
}
