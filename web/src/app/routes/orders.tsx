import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { useAuth } from '../../features/auth/auth-context';
import { RequireUser } from '../../features/auth/require-user';
import { booksQuery } from '../../features/catalog/api/get-books';
import { ordersQuery } from '../../features/orders/get-orders';
import { formatDate, money } from '../../lib/format';
import { usePageTitle } from '../use-page-title';

export function Component() {
  usePageTitle('Your Orders');
  return (
    <RequireUser>
      <Orders />
    </RequireUser>
  );
}

function Orders() {
  const { user } = useAuth();
  const { data: orders, isPending, isError } = useQuery(ordersQuery(user?.email ?? ''));
  // Titles for the ordered ids, from the cached catalogue (an id stays visible if a book was deleted).
  const { data: books } = useQuery(booksQuery());
  const titles = new Map(books?.map((b) => [b._id, b.title]));
  if (isPending) return <p role="status" className="py-16 text-center">Loading...</p>;
  if (isError) return <p role="alert" className="py-16 text-center text-red-700">Error getting order data</p>;
  return (
    <section className="mx-auto max-w-3xl py-10">
      <h1 className="mb-6 text-2xl font-semibold">Your Orders</h1>
      {orders.length === 0 ? (
        <p>No orders found!</p>
      ) : (
        <ol className="space-y-6">
          {orders.map((order, index) => (
            <li key={order._id} className="rounded-lg bg-white p-5 shadow ring-1 ring-gray-100">
              <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
                <p className="rounded bg-secondary px-2 py-0.5 text-sm text-white"># {orders.length - index}</p>
                <span className="rounded-full bg-amber-100 px-3 py-0.5 text-sm font-medium capitalize text-amber-900">{order.status}</span>
              </div>
              <h2 className="break-all font-semibold">Order ID: {order._id}</h2>
              <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm text-gray-700">
                <dt>Placed</dt><dd>{formatDate(order.createdAt)}</dd>
                <dt>Name</dt><dd>{order.name}</dd>
                <dt>Email</dt><dd>{order.email}</dd>
                <dt>Phone</dt><dd>{order.phone}</dd>
                <dt>Total</dt><dd className="font-semibold text-gray-900">{money(order.totalPrice)}</dd>
                <dt>Address</dt><dd>{[order.address.street, order.address.city, order.address.state, order.address.country, order.address.zipcode].filter(Boolean).join(', ')}</dd>
              </dl>
              <h3 className="mt-3 text-sm font-semibold">Products ({order.productIDs.length})</h3>
              <ul className="ml-4 list-disc text-sm text-gray-700">
                {order.productIDs.map((id) => (
                  <li key={id}>
                    <Link to={`/books/${id}`} className="text-blue-700 hover:underline">{titles.get(id) ?? id}</Link>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
