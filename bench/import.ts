import { toCsv } from '@bookstore/contract';
import { SHOP_URL } from '../scripts/lib/env';
import { adminLogin } from '../scripts/lib/fixtures';

// A 10,000-row catalogue import as the admin page does it: through Hosting to the function, a dry run
// then the real import, 500 rows per request, one request after another. Needs the emulator suite
// (npm start, or `npm run bench -- --import`, which puts it in the report).
//   npx tsx bench/import.ts [rows]

export interface ImportTiming {
  rows: number;
  dryRunMs: number;
  importMs: number;
  reimportMs: number;
  created: number;
  reimportCreated: number;
  /** When it was measured: a run without --import keeps the previous run's figures (absent in older results). */
  measuredAt?: string;
}

const CHUNK = 500;
const HEADER = ['title', 'author', 'description', 'category', 'oldPrice', 'newPrice', 'stock', 'isbn', 'coverImage'];

function isbn(n: number): string {
  const body = `9798${String(n).padStart(8, '0')}`;
  const sum = [...body].reduce((acc, d, i) => acc + Number(d) * (i % 2 === 0 ? 1 : 3), 0);
  return body + ((10 - (sum % 10)) % 10);
}

export async function measureImport(rows = 10_000, base = SHOP_URL, log: (line: string) => void = () => {}): Promise<ImportTiming> {
  const token = await adminLogin(base);
  const records = Array.from({ length: rows }, (_, i) => [`Bench book ${i + 1}`, 'Bench Author', `Description of bench book ${i + 1}, with a comma.`, 'business', '30', '19.99', '5', isbn(i + 1), `book-${(i % 23) + 1}`]);
  const send = async (dryRun: boolean) => {
    let created = 0;
    const started = performance.now();
    for (let i = 0; i < records.length; i += CHUNK) {
      const res = await fetch(`${base}/api/books/import?dryRun=${dryRun ? 1 : 0}&firstRow=${i + 1}`, {
        method: 'POST',
        headers: { 'Content-Type': 'text/csv', Authorization: `Bearer ${token}` },
        body: toCsv([HEADER, ...records.slice(i, i + CHUNK)]),
      });
      const report = (await res.json()) as { created: number; errors: unknown[]; message?: string };
      if (res.status !== 200 || report.errors.length > 0) throw new Error(`import chunk at row ${i + 1}: ${res.status} ${report.message ?? JSON.stringify(report.errors.slice(0, 3))}`);
      created += report.created;
      if ((i / CHUNK) % 5 === 4) log(`  ${dryRun ? 'dry run' : 'import'}: ${i + CHUNK} rows, ${Math.round(performance.now() - started)} ms`);
    }
    return { ms: Math.round(performance.now() - started), created };
  };
  const dry = await send(true);
  const real = await send(false);
  const again = await send(false);
  return { rows, dryRunMs: dry.ms, importMs: real.ms, reimportMs: again.ms, created: real.created, reimportCreated: again.created };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const t = await measureImport(Number(process.argv[2] ?? 10_000), SHOP_URL, (line) => console.log(line));
  console.log(`import of ${t.rows} rows in chunks of ${CHUNK}: dry run ${t.dryRunMs} ms, import ${t.importMs} ms (${t.created} created), same file again ${t.reimportMs} ms (${t.reimportCreated} created)`);
}
