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

/** A plain SVG bar chart: no chart library for twelve bars. */
export function RevenueChart({ monthly }: { monthly: MonthlySales[] }) {
  const bars = chartBars(monthly);
  const sample = !monthly.some((m) => m.totalOrders > 0);
  const max = Math.max(...bars.map((b) => b.value), 1);
  const W = 600, H = 260, P = 32, bw = (W - P * 2) / bars.length;
  return (
    <figure>
      <figcaption className="mb-2 text-center text-sm font-semibold text-gray-700">
        The number of orders per month{sample && <span className="font-normal text-gray-500"> (sample data until the first order)</span>}
      </figcaption>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={`Revenue (USD) by month: ${bars.map((b) => `${b.label} $${b.value}`).join(', ')}`} className="h-auto w-full">
        <text x={P} y={14} fontSize="11" fill="#4b5563">Revenue (USD)</text>
        <line x1={P} y1={H - P} x2={W - P} y2={H - P} stroke="#d1d5db" />
        {bars.map((b, i) => {
          const h = ((H - P * 2) * b.value) / max;
          return (
            <g key={`${b.label}-${i}`}>
              <rect x={P + i * bw + bw * 0.15} y={H - P - h} width={bw * 0.7} height={h} rx="3" fill="rgba(34,197,94,0.7)" stroke="rgba(34,197,94,1)">
                <title>{`${b.label}: ${money(b.value)}${b.orders ? `, ${b.orders} orders` : ''}`}</title>
              </rect>
              <text x={P + i * bw + bw / 2} y={H - P + 16} fontSize="11" textAnchor="middle" fill="#4b5563">{b.label}</text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
