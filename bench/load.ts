import autocannon from 'autocannon';

// Latency and throughput with autocannon on loopback. Every response time is recorded (autocannon's
// own histogram rounds to whole milliseconds and has no p95). autocannon opens all its connections
// at once and starts each first request's clock before its connection exists, so at 100 connections
// the first answers measure a burst of 100 TCP set-ups on 2 shared cores (up to seconds), not the
// server: the percentiles leave out each connection's first answer, which is reported on its own
// (firstAnswerMax) and still counted in answers and req/s.

export interface LoadResult {
  name: string;
  connections: number;
  seconds: number;
  requests: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  /** The slowest first answer of a connection (its clock includes the TCP connection set-up). */
  firstAnswerMax: number;
  /** Connection errors and timeouts. */
  errors: number;
  non2xx: number;
  status5xx: number;
  /** The first few non-2xx answers, to say why in the report. */
  samples: string[];
}

export interface LoadSpec {
  name: string;
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Changes each request (its n-th call makes the n-th request): a fresh key, another book. */
  vary?: (n: number) => { headers?: Record<string, string>; body?: string };
  /** Not measured above this many connections. */
  maxConnections?: number;
}

const pct = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! : 0);

/** Only loopback may be load-tested on these machines. */
function assertLoopback(url: string): void {
  const host = new URL(url).hostname;
  if (!/^127\.\d+\.\d+\.\d+$/.test(host) && host !== '[::1]' && host !== 'localhost') throw new Error(`Refusing to load-test ${host}: loopback only`);
}

export async function load(spec: LoadSpec, connections: number, seconds = 5): Promise<LoadResult> {
  assertLoopback(spec.url);
  const times: number[] = [];
  const seen = new Set<unknown>();
  let firstAnswerMax = 0;
  let answers = 0;
  const samples: string[] = [];
  let counter = 0;
  let status5xx = 0;
  const instance = autocannon({
    url: spec.url,
    connections,
    duration: seconds,
    timeout: 30,
    method: spec.method ?? 'GET',
    headers: spec.headers,
    body: spec.body,
    requests: [
      {
        // autocannon calls setupRequest whenever the key exists, so it is left out when unused.
        ...(spec.vary && {
          setupRequest: (req: { headers?: Record<string, string>; body?: string }) => {
            const change = spec.vary!(counter++);
            return { ...req, headers: { ...req.headers, ...change.headers }, body: change.body ?? req.body };
          },
        }),
        onResponse: (status: number, body: string) => {
          if ((status < 200 || status > 299) && samples.length < 3) samples.push(`${status} ${String(body).slice(0, 200)}`);
        },
      },
    ],
  });
  instance.on('response', (client: unknown, status: number, _bytes: number, responseTime: number) => {
    answers += 1;
    if (seen.has(client)) times.push(responseTime);
    else {
      seen.add(client);
      firstAnswerMax = Math.max(firstAnswerMax, responseTime);
    }
    if (status >= 500) status5xx += 1;
  });
  const result = await instance;
  times.sort((a, b) => a - b);
  const duration = result.duration || seconds;
  return {
    name: spec.name,
    connections,
    seconds,
    requests: answers,
    rps: Math.round((answers / duration) * 10) / 10,
    p50: Number(pct(times, 50).toFixed(2)),
    p95: Number(pct(times, 95).toFixed(2)),
    p99: Number(pct(times, 99).toFixed(2)),
    firstAnswerMax: Math.round(firstAnswerMax),
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    status5xx,
    samples,
  };
}
