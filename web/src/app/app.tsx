import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { RouterProvider } from 'react-router-dom';
import { UpdatePrompt } from '../components/ui/update-prompt';
import { AuthStateProvider } from '../lib/auth/auth-context';
import { AdminSessionWatcher } from './admin-session-watcher';
import type { AppRouter } from './routes';

/**
 * The whole app. The browser (main.tsx) and the server render (web/src/server/render.tsx, which the
 * build-time prerender, web/prerender.ts, and the pages function both use) render this same
 * tree, so a prerendered page hydrates without a mismatch (useId's ids depend on the tree's shape).
 */
export function App({ router, queryClient }: { router: AppRouter; queryClient: QueryClient }) {
  return (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <AuthStateProvider>
          <RouterProvider router={router} />
          <AdminSessionWatcher router={router} />
          <UpdatePrompt />
        </AuthStateProvider>
      </QueryClientProvider>
    </StrictMode>
  );
}
