import { run } from './lib/watched-process';

// `npm run test:watch`: Vitest's watch mode on the unit project (unit and component tests, which need
// no emulator): on each save it reruns the test files that import what changed. Arguments go to
// Vitest (`npm run test:watch -- cart` watches the files whose path has `cart`). docs/test-quick.md.
const { code } = await run(process.execPath, ['node_modules/vitest/vitest.mjs', 'watch', '--project', 'unit', ...process.argv.slice(2)]);
process.exit(code);
