import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// reactfire imports firestore, database, storage, functions and remote-config at its top level;
// we use only its Auth parts, so those packages are declared free of side effects and dropped.
const UNUSED_FIREBASE = /node_modules\/(?:@firebase\/(?:firestore|database|storage|functions|remote-config|performance|analytics|app-check|messaging|installations)|firebase\/(?:firestore|database|storage|functions|remote-config|performance|analytics|app-check|messaging|installations))/;

export default defineConfig({
  plugins: [react(), tailwindcss()],
  build: {
    target: 'es2022',
    manifest: true, // read by the bundle budget test
    rolldownOptions: {
      treeshake: {
        moduleSideEffects: (id: string) => !UNUSED_FIREBASE.test(id),
      },
    },
  },
});
