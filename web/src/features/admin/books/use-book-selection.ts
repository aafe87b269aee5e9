import type { BulkBooks, Permission } from '@bookstore/contract';
import { useState } from 'react';
import { alertBox, confirmBox } from '../../../lib/notify';
import { useBulkBooks } from '../api/bulk-books';
import { useMe } from '../api/staff-api';

const BULK_PERMISSION: Record<BulkBooks['action'], Permission> = { price: 'books.price', stock: 'books.stock', delete: 'books.delete' };

/**
 * Manage Books' bulk selection: this page's books only (a new page, search or sort, named by
 * `pageKey`, starts afresh), and the bulk changes the signed-in role may make to them.
 */
export function useBookSelection(pageKey: string) {
  const me = useMe();
  const bulk = useBulkBooks();
  const bulkActions = (['price', 'stock', 'delete'] as const).filter((a) => me.can(BULK_PERMISSION[a]));
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [selectedFor, setSelectedFor] = useState(pageKey);
  if (selectedFor !== pageKey) {
    setSelectedFor(pageKey);
    setSelected(new Set());
  }
  const toggle = (id: string) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const applyBulk = async (change: BulkBooks) => {
    const ids = [...selected];
    if (change.action === 'delete' && !(await confirmBox(`Delete ${ids.length} ${ids.length === 1 ? 'book' : 'books'}?`, 'They will be removed from the shop. This cannot be undone.', 'Delete'))) return;
    try {
      const answer = await bulk.mutateAsync({ ...change, ids });
      setSelected(new Set());
      await alertBox(answer.message, answer.missing.length ? `${answer.missing.length} had already been deleted.` : undefined, 'success');
    } catch (error) {
      console.error('Bulk change failed', error);
      await alertBox('Could not change the selected books. Please try again.', error instanceof Error ? error.message : undefined, 'error');
    }
  };
  return { selectable: bulkActions.length > 0, bulkActions, busy: bulk.isPending, selected, setSelected, toggle, applyBulk };
}

export type BookSelection = ReturnType<typeof useBookSelection>;
