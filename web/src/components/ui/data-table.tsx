import type { ReactNode } from 'react';

export interface Column {
  label: string;
  /** The header cell's padding and alignment; px-6 py-3 when absent. */
  className?: string;
}

/** A dashboard list's table: a header row from `columns` (scope="col"), then the rows given. */
export function DataTable({ columns, children }: { columns: readonly Column[]; children: ReactNode }) {
  return (
    <table className="w-full border-collapse text-left text-sm">
      <thead className="bg-gray-50 text-xs font-semibold text-gray-600">
        <tr>
          {columns.map((column) => (
            <th key={column.label} scope="col" className={column.className ?? 'px-6 py-3'}>{column.label}</th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
