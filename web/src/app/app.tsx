import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { lazy, StrictMode, Suspense } from 'react';
import { RouterProvider } from 'react-router-dom';
import { AuthStateProvider } from '../lib/auth/auth-context';
import { confirmEarlyAdd } from '../features/cart/early-add';
import { useReplayEarlyInput } from '../lib/early-input';
import { useWaitingUpdate } from '../lib/pwa/update-state';
import { AdminSessionWatcher } from './admin-session-watcher';
import type { AppRouter } from './routes';

/**
 * The whole app. The browser (app/start.tsx) and the server render (web/src/server/render.tsx, which the
 * build-time prerender, web/prerender.ts, and the pages function both use) render this same
 * tree, so a prerendered page hydrates without a mismatch (useId's ids depend on the tree's shape).
 */
export function App({ router, queryClient }: { router: AppRouter; queryClient: QueryClient }) {
  // Taps on the served page before the app started, replayed once it owns the page (decision 038).
  // An Add to Cart the start script answered itself is confirmed, not added again (issue 60).
  useReplayEarlyInput(confirmEarlyAdd);
  return (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <AuthStateProvider>
          <RouterProvider router={router} />
          <AdminSessionWatcher router={router} />
          <WaitingUpdate />
        </AuthStateProvider>
      </QueryClientProvider>
    </StrictMode>
  );
}

// 'A new version is available' is rare: its banner's code loads only when a new build is waiting
// (the first load's JavaScript stays within its budget, web/src/bundle-budget.test.ts).
const UpdatePrompt = lazy(() => import('../components/ui/update-prompt').then((m) => ({ default: m.UpdatePrompt })));

function WaitingUpdate() {
  const update = useWaitingUpdate();
  return update ? <Suspense fallback={null}><UpdatePrompt /></Suspense> : null;
}
