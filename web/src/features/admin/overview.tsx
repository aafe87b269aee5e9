import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { FullScreenSpinner } from '../../components/ui/spinner';
import { statsQuery } from './api/admin-api';
import { RevenueChart } from './components/revenue-chart';

const PEOPLE = [
  ['Annette Watson', 9.3], ['Calvin Steward', 8.9], ['Ralph Richards', 8.7], ['Bernard Murphy', 8.2], ['Arlene Robertson', 8.2],
  ['Jane Lane', 8.1], ['Pat Mckinney', 7.9], ['Norman Walters', 7.7],
] as const;

function StatCard({ label, value, tone, icon }: { label: ReactNode; value: ReactNode; tone: string; icon: string }) {
  return (
    <div className="flex items-center rounded-lg bg-white p-8 shadow">
      <div className={`mr-6 inline-flex size-16 shrink-0 items-center justify-center rounded-full ${tone}`}>
        <svg width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" aria-hidden="true"><path d={icon} /></svg>
      </div>
      <div>
        <span className="block text-2xl font-bold">{value}</span>
        <span className="block text-gray-600">{label}</span>
      </div>
    </div>
  );
}

export function Component() {
  const { data, isPending } = useQuery(statsQuery());
  // Spec: a stats failure is only logged, and the overview stays in its loading state.
  if (isPending || !data) return <FullScreenSpinner />;
  return (
    <>
      <section className="grid gap-6 md:grid-cols-2 xl:grid-cols-4" aria-label="Shop statistics">
        <StatCard label="Products" value={data.totalBooks} tone="bg-purple-100 text-purple-700" icon="M4 19.5A2.5 2.5 0 0 1 6.5 17H20V3H6.5A2.5 2.5 0 0 0 4 5.5z" />
        <StatCard label="Total Sales" value={`$${data.totalSales.toFixed(2)}`} tone="bg-green-100 text-green-700" icon="M12 1v22M17 5H9.5a3.5 3.5 0 0 0 0 7h5a3.5 3.5 0 0 1 0 7H6" />
        <StatCard
          label="Trending Books in This Month"
          value={<>{data.trendingBooks} <span className="inline-block align-top text-xl font-semibold text-gray-500">(13%)</span></>}
          tone="bg-red-100 text-red-700"
          icon="M23 6l-9.5 9.5-5-5L1 18"
        />
        <StatCard label="Total Orders" value={data.totalOrders} tone="bg-blue-100 text-blue-700" icon="M6 2 3 6v14a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2V6l-3-4zM3 6h18M16 10a4 4 0 0 1-8 0" />
      </section>
      <section className="grid gap-6 md:grid-cols-2 xl:grid-flow-col xl:grid-cols-4 xl:grid-rows-3">
        <div className="flex flex-col rounded-lg bg-white shadow md:col-span-2 md:row-span-2">
          <h3 className="border-b border-gray-100 px-6 py-5 font-semibold">Monthly Revenue</h3>
          <div className="flex-grow p-4"><RevenueChart monthly={data.monthlySales} /></div>
        </div>
        <div className="flex items-center rounded-lg bg-white p-8 shadow">
          <div className="mr-6 inline-flex size-16 items-center justify-center rounded-full bg-yellow-100 text-yellow-700" aria-hidden="true">
            <svg width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2"><circle cx="12" cy="12" r="9" /><path d="M12 7v5l3 3" /></svg>
          </div>
          <div><span className="block text-2xl font-bold">02</span><span className="block text-gray-600">Orders left</span></div>
        </div>
        <div className="flex items-center rounded-lg bg-white p-8 shadow">
          <div className="mr-6 inline-flex size-16 items-center justify-center rounded-full bg-teal-100 text-teal-700" aria-hidden="true">
            <svg width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2"><path d="M2 12s4-7 10-7 10 7 10 7-4 7-10 7S2 12 2 12z" /><circle cx="12" cy="12" r="3" /></svg>
          </div>
          <div><span className="block text-2xl font-bold">139</span><span className="block text-gray-600">Website visits (last day)</span></div>
        </div>
        <div className="row-span-3 rounded-lg bg-white shadow">
          <h3 className="border-b border-gray-100 px-6 py-5 font-semibold">Users by average order</h3>
          <div className="max-h-[24rem] overflow-y-auto" tabIndex={0} aria-label="Users by average order">
            <ul className="space-y-6 p-6">
              {PEOPLE.map(([name, score]) => (
                <li key={name} className="flex items-center">
                  <img src="/images/avatar.svg" alt="" width={40} height={40} loading="lazy" className="mr-3 size-10 rounded-full" />
                  <span className="text-gray-700">{name}</span>
                  <span className="ml-auto font-semibold">{score}</span>
                </li>
              ))}
            </ul>
          </div>
        </div>
        <div className="flex flex-col rounded-lg bg-white shadow md:col-span-2 xl:col-span-1 xl:row-span-1">
          <h3 className="border-b border-gray-100 px-6 py-5 font-semibold">Students by type of studying</h3>
          <div className="flex flex-grow items-center justify-center p-4">
            <div className="flex h-36 w-full items-center justify-center rounded-md border-2 border-dashed border-gray-200 px-4 text-center text-sm text-gray-500">Chart</div>
          </div>
        </div>
      </section>
    </>
  );
}
