import { useEffect } from 'react';

export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = title.includes('Bookstore') ? title : `${title} | Bookstore`;
  }, [title]);
}
