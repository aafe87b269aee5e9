import { rmSync } from 'node:fs';
import { ROOT } from './lib/env';
import { assertPortsFree } from './lib/ports';

// Removes saved emulator data; the next `npm start` seeds the pristine demo data again.
assertPortsFree()
  .then(() => {
    rmSync(`${ROOT}emulator-data/state`, { recursive: true, force: true });
    console.log('Emulator data removed. The next `npm start` seeds the demo data again.');
  })
  .catch((error) => {
    console.error(`${error.message}\nStop the running shop (Ctrl-C) before resetting.`);
    process.exit(1);
  });
