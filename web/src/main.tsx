import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router-dom';
import { AdminSessionWatcher } from './app/admin-session-watcher';
import { router } from './app/router';
import { AuthStateProvider } from './lib/auth/auth-context';
import { ApiError } from './lib/api-client';
import './index.css';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      // A 4xx will not change on retry; network trouble might.
      retry: (count, error) => count < 2 && !(error instanceof ApiError && typeof error.kind === 'number' && error.kind < 500),
    },
  },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <AuthStateProvider>
        <RouterProvider router={router} />
        <AdminSessionWatcher />
      </AuthStateProvider>
    </QueryClientProvider>
  </StrictMode>,
);
