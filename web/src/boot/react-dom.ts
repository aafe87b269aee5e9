// The first of the app's two start stages (web/src/main.tsx): React DOM alone, evaluated in a task
// of its own before the app's modules, so a phone's main thread is never held by both at once.
export { createRoot, hydrateRoot } from 'react-dom/client';
