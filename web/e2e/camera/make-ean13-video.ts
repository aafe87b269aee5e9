import { writeFileSync } from 'node:fs';

// Makes the fake camera's recording for camera-scan.spec.ts: one frame of a drawn EAN-13 barcode as
// a Y4M video, which Chromium plays in a loop as its camera (--use-file-for-fake-video-capture).
//   npx tsx web/e2e/camera/make-ean13-video.ts   (rewrites web/e2e/camera/ean13-<isbn>.y4m)
// EAN-13: a start guard 101, six digits in L or G codes (the pattern of L and G names the first
// digit), a middle guard 01010, six digits in R codes, an end guard 101. Each module is MODULE pixels.

/** The ISBN the recording shows (the spec sells a book with it). 978-1-7386-0057-?: check digit computed. */
export const CAMERA_ISBN_12 = '978173860057';
export const cameraIsbn = () => CAMERA_ISBN_12 + checkDigit(CAMERA_ISBN_12);

const L = ['0001101', '0011001', '0010011', '0111101', '0100011', '0110001', '0101111', '0111011', '0110111', '0001011'];
const G = ['0100111', '0110011', '0011011', '0100001', '0011101', '0111001', '0000101', '0010001', '0001001', '0010111'];
const R = L.map((code) => [...code].map((bit) => (bit === '1' ? '0' : '1')).join(''));
const PARITY = ['LLLLLL', 'LLGLGG', 'LLGGLG', 'LLGGGL', 'LGLLGG', 'LGGLLG', 'LGGGLL', 'LGLGLG', 'LGLGGL', 'LGGLGL'];

function checkDigit(twelve: string): string {
  const sum = [...twelve].reduce((total, d, i) => total + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
  return String((10 - (sum % 10)) % 10);
}

/** The 95 modules of an EAN-13, '1' a bar. */
export function ean13Modules(code: string): string {
  const digits = [...code].map(Number);
  const parity = PARITY[digits[0]!]!;
  const left = digits.slice(1, 7).map((d, i) => (parity[i] === 'L' ? L : G)[d]).join('');
  const right = digits.slice(7).map((d) => R[d]).join('');
  return `101${left}01010${right}101`;
}

const WIDTH = 320;
const HEIGHT = 240;
const MODULE = 2;
const BLACK = 16; // video-range luma
const WHITE = 235;

function frame(modules: string): Buffer {
  const luma = Buffer.alloc(WIDTH * HEIGHT, WHITE);
  const left = Math.floor((WIDTH - modules.length * MODULE) / 2);
  for (let y = 40; y < HEIGHT - 40; y += 1) {
    for (let m = 0; m < modules.length; m += 1) {
      if (modules[m] === '1') luma.fill(BLACK, y * WIDTH + left + m * MODULE, y * WIDTH + left + (m + 1) * MODULE);
    }
  }
  const chroma = Buffer.alloc((WIDTH / 2) * (HEIGHT / 2) * 2, 128); // grey: no colour
  return Buffer.concat([Buffer.from('FRAME\n'), luma, chroma]);
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  const isbn = cameraIsbn();
  const file = new URL(`./ean13-${isbn}.y4m`, import.meta.url);
  writeFileSync(file, Buffer.concat([Buffer.from(`YUV4MPEG2 W${WIDTH} H${HEIGHT} F10:1 Ip A1:1 C420jpeg\n`), frame(ean13Modules(isbn))]));
  console.log(`wrote ${file.pathname} (ISBN ${isbn})`);
}
