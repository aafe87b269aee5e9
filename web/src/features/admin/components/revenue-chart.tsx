import type { MonthlySales } from '@bookstore/contract';
import { money } from '../../../lib/format';

// The spec's sample values, shown (and labelled as a sample) only while the shop has no orders.
const SAMPLE = [500, 700, 800, 600, 750, 900, 650, 870, 960, 1020, 1100, 1150];
const MONTH_NAMES = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export function chartBars(monthly: MonthlySales[]): { label: string; value: number; orders: number }[] {
  const real = monthly.some((m) => m.totalOrders > 0);
  if (!real) return MONTH_NAMES.map((label, i) => ({ label, value: SAMPLE[i]!, orders: 0 }));
  return monthly.map((m) => ({ label: MONTH_NAMES[Number(m.month.slice(5, 7)) - 1] ?? m.month, value: m.totalSales, orders: m.totalOrders }));
}

/** The value axis' ticks: 0 and four steps of a round size (1, 2 or 5 times a power of ten) covering `max`. */
export function axisTicks(max: number): number[] {
  const raw = Math.max(max, 1) / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw)!;
  return [0, 1, 2, 3, 4].map((i) => i * step);
}

const tickLabel = (value: number) => (value >= 1000 ? `$${value / 1000}k` : `$${value}`);

// Colours of the design tokens (web/src/index.css), as Tailwind's fill and stroke classes.
const AXIS = 'stroke-gray-300';
const TEXT = 'fill-gray-600';
const BAR = 'fill-accent';

/** A plain SVG bar chart with labelled axes (issue 29): no chart library for twelve bars. */
export function RevenueChart({ monthly }: { monthly: MonthlySales[] }) {
  const bars = chartBars(monthly);
  const sample = !monthly.some((m) => m.totalOrders > 0);
  const ticks = axisTicks(Math.max(...bars.map((b) => b.value)));
  const top = ticks[ticks.length - 1]!;
  // Room on the left for the value labels and the axis title, below for the months and their title.
  const W = 600, H = 280, L = 72, R = 12, T = 12, B = 48;
  const plotH = H - T - B;
  const bw = (W - L - R) / bars.length;
  const y = (value: number) => T + plotH - (plotH * value) / top;
  return (
    <figure>
      <figcaption className="mb-2 text-center text-sm font-semibold text-gray-700">
        The number of orders per month{sample && <span className="font-normal text-gray-600"> (sample data until the first order)</span>}
      </figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`Revenue (USD) by month: ${bars.map((b) => `${b.label} $${b.value}`).join(', ')}`} className="h-auto w-full">
        {ticks.map((tick) => (
          <g key={tick}>
            <line x1={L} y1={y(tick)} x2={W - R} y2={y(tick)} className={AXIS} strokeDasharray={tick === 0 ? undefined : '3 3'} />
            <text x={L - 8} y={y(tick) + 4} fontSize="12" textAnchor="end" className={TEXT}>{tickLabel(tick)}</text>
          </g>
        ))}
        <line x1={L} y1={T} x2={L} y2={T + plotH} className={AXIS} />
        <text transform={`translate(16 ${T + plotH / 2}) rotate(-90)`} fontSize="12" textAnchor="middle" className={TEXT} fontWeight="600">Revenue (USD)</text>
        {bars.map((b, i) => {
          const h = (plotH * b.value) / top;
          return (
            <g key={`${b.label}-${i}`}>
              <rect x={L + i * bw + bw * 0.15} y={T + plotH - h} width={bw * 0.7} height={h} rx="3" className={BAR}>
                <title>{`${b.label}: ${money(b.value)}${b.orders ? `, ${b.orders} orders` : ''}`}</title>
              </rect>
              <text x={L + i * bw + bw / 2} y={T + plotH + 16} fontSize="12" textAnchor="middle" className={TEXT}>{b.label}</text>
            </g>
          );
        })}
        <text x={L + (W - L - R) / 2} y={H - 6} fontSize="12" textAnchor="middle" className={TEXT} fontWeight="600">Month the order was placed (last 12 months)</text>
      </svg>
    </figure>
  );
}
