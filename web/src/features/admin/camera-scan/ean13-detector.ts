import { BarcodeDetector as ZXingBarcodeDetector, prepareZXingModule } from 'barcode-detector/ponyfill';
// The reader's .wasm as a file of our own build (web/dist/assets/), never the CDN zxing-wasm
// defaults to: Vite copies it and gives its URL; nothing is downloaded from elsewhere at run time.
import zxingReaderWasm from 'zxing-wasm/reader/zxing_reader.wasm?url';

// EAN-13 from the camera (issue 57): the browser's BarcodeDetector where it reads EAN-13 (Android,
// ChromeOS, macOS), else the `barcode-detector` ponyfill (ZXing-C++ as WebAssembly: iPhones, Linux,
// Windows). Only camera-scan.tsx loads this module, with import() when the camera opens, so the
// ponyfill and its .wasm stay out of every other page's download (web/src/bundle-budget.test.ts).
// Compiling the .wasm needs 'wasm-unsafe-eval' in the CSP's script-src (firebase.json).

export interface Detected {
  rawValue: string;
  format: string;
}
export interface Ean13Detector {
  detect(source: HTMLVideoElement): Promise<Detected[]>;
}

interface NativeDetectorClass {
  new (options: { formats: string[] }): Ean13Detector;
  getSupportedFormats(): Promise<string[]>;
}

let prepared = false;

export async function ean13Detector(): Promise<Ean13Detector> {
  const native = (globalThis as { BarcodeDetector?: NativeDetectorClass }).BarcodeDetector;
  if (native) {
    try {
      if ((await native.getSupportedFormats()).includes('ean_13')) return new native({ formats: ['ean_13'] });
    } catch {
      // A BarcodeDetector without a working platform reader: the ponyfill below.
    }
  }
  if (!prepared) {
    prepareZXingModule({ overrides: { locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? zxingReaderWasm : prefix + path) } });
    prepared = true;
  }
  return new ZXingBarcodeDetector({ formats: ['ean_13'] });
}
