import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { FullScreenSpinner } from '../../components/ui/spinner';
import { money } from '../../lib/format';
import { alertBox, confirmBox } from '../../lib/notify';
import { booksQuery, booksQueryKey } from '../catalog/api/get-books';
import { deleteBook } from './api/admin-api';

export function Component() {
  const queryClient = useQueryClient();
  const { data: books, isPending, isError } = useQuery(booksQuery());

  const remove = async (id: string, title: string) => {
    if (!(await confirmBox('Delete this book?', `"${title}" will be removed from the shop.`, 'Delete'))) return;
    try {
      await deleteBook(id);
      await queryClient.invalidateQueries({ queryKey: booksQueryKey });
      await alertBox('Book deleted successfully!', undefined, 'success');
    } catch (error) {
      console.error('Delete failed', error);
      await alertBox('Failed to delete book. Please try again.', undefined, 'error');
    }
  };

  if (isPending) return <FullScreenSpinner />;
  if (isError) return <p role="alert" className="text-red-700">Could not load the books. Please reload the page.</p>;
  return (
    <section className="rounded-lg bg-white shadow">
      <div className="flex items-center justify-between px-4 py-4">
        <h3 className="text-base font-semibold">All Books</h3>
        <button type="button" className="rounded bg-indigo-600 px-3 py-1 text-xs font-bold uppercase text-white">See all</button>
      </div>
      <div className="overflow-x-auto">
        <table className="w-full border-collapse text-left text-sm">
          <thead className="bg-gray-50 text-xs uppercase text-gray-600">
            <tr>
              <th scope="col" className="px-6 py-3">#</th>
              <th scope="col" className="px-6 py-3">Book Title</th>
              <th scope="col" className="px-6 py-3">Category</th>
              <th scope="col" className="px-6 py-3">Price</th>
              <th scope="col" className="px-6 py-3">Actions</th>
            </tr>
          </thead>
          <tbody>
            {books.map((book, index) => (
              <tr key={book._id} className="border-t border-gray-100">
                <td className="px-6 py-3">{index + 1}</td>
                <td className="px-6 py-3 font-medium">{book.title}</td>
                <td className="px-6 py-3 capitalize">{book.category}</td>
                <td className="px-6 py-3">{money(book.newPrice)}</td>
                <td className="space-x-4 whitespace-nowrap px-6 py-3">
                  <Link to={`/dashboard/edit-book/${book._id}`} className="font-medium text-indigo-700 hover:underline">
                    Edit<span className="sr-only"> {book.title}</span>
                  </Link>
                  <button type="button" onClick={() => remove(book._id, book.title)} className="rounded-full bg-red-600 px-4 py-1 font-medium text-white hover:bg-red-700">
                    Delete<span className="sr-only"> {book.title}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
