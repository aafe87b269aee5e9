import { useQuery } from '@tanstack/react-query';
import { BellIcon } from '../../../components/ui/icons';
import { stockAlertCountQuery } from '../api/stock-alerts';

/** On the book's edit page: how many shoppers asked to be emailed when it is back (issue 28). */
export function StockAlertsWaiting({ bookId }: { bookId: string }) {
  const { data } = useQuery(stockAlertCountQuery(bookId));
  if (!data) return null;
  const { waiting } = data;
  return (
    <p role="status" data-testid="stock-alerts-waiting" className={`mb-4 flex items-center gap-2 rounded-md px-3 py-2 text-sm ring-1 ${waiting > 0 ? 'bg-primary-soft text-secondary ring-primary' : 'bg-gray-50 text-gray-700 ring-gray-200'}`}>
      <BellIcon className="size-4 shrink-0" />
      {waiting === 0
        ? 'No one is waiting for a back-in-stock email.'
        : `${waiting} ${waiting === 1 ? 'shopper is' : 'shoppers are'} waiting for a back-in-stock email: raising the stock from 0 sends it.`}
    </p>
  );
}
