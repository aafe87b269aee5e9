import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';

function App() {
  const [books, setBooks] = useState<{ _id: string; title: string }[]>([]);
  useEffect(() => { fetch('/api/books').then((r) => r.json()).then(setBooks); }, []);
  return <ul>{books.map((b) => <li key={b._id}>{b.title}</li>)}</ul>;
}
createRoot(document.getElementById('root')!).render(<StrictMode><App /></StrictMode>);
