import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { RouterProvider } from 'react-router-dom';
import { UpdatePrompt } from '../components/ui/update-prompt';
import { AuthStateProvider } from '../lib/auth/auth-context';
import { useReplayEarlyInput } from '../lib/early-input';
import { AdminSessionWatcher } from './admin-session-watcher';
import type { AppRouter } from './routes';

/**
 * The whole app. The browser (main.tsx) and the build-time prerender (prerender.tsx) render this same
 * tree, so a prerendered page hydrates without a mismatch (useId's ids depend on the tree's shape).
 */
export function App({ router, queryClient }: { router: AppRouter; queryClient: QueryClient }) {
  // Taps on the served page before the app started, replayed once it owns the page (decision 030).
  useReplayEarlyInput();
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
