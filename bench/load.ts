import autocannon from 'autocannon';

// Latency and throughput with autocannon on loopback. Every response time is recorded (autocannon's
// own histogram rounds to whole milliseconds and has no p95), and each figure is also given as a
// ratio to GET /index.html measured in the same run, since load generator and server share 2 cores.

export interface LoadResult {
  name: string;
  connections: number;
  requests: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  errors: number;
  non2xx: number;
  status5xx: number;
}

export interface LoadSpec {
  name: string;
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Adds a fresh Idempotency-Key to each request. */
  uniqueKeys?: boolean;
}

const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : 0);

export async function load(spec: LoadSpec, connections: number, seconds = 5, amount?: number): Promise<LoadResult> {
  const times: number[] = [];
  let counter = 0;
  let status5xx = 0;
  const instance = autocannon({
    url: spec.url,
    connections,
    duration: amount ? undefined : seconds,
    amount,
    method: spec.method ?? 'GET',
    headers: spec.headers,
    body: spec.body,
    requests: spec.uniqueKeys
      ? [{ setupRequest: (req: any) => ({ ...req, headers: { ...req.headers, 'idempotency-key': `bench-${process.pid}-${Date.now()}-${counter++}` } }) }]
      : undefined,
  });
  instance.on('response', (_client: unknown, status: number, _bytes: number, responseTime: number) => {
    times.push(responseTime);
    if (status >= 500) status5xx += 1;
  });
  const result = await instance;
  times.sort((a, b) => a - b);
  return {
    name: spec.name,
    connections,
    requests: times.length,
    rps: Math.round((times.length / (result.duration || seconds)) * 10) / 10,
    p50: Number(pct(times, 50).toFixed(2)),
    p95: Number(pct(times, 95).toFixed(2)),
    p99: Number(pct(times, 99).toFixed(2)),
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    status5xx,
  };
}
