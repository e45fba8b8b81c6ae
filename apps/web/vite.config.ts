import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  server: { proxy: { '/api': 'http://localhost:3000' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json: the server names a public page's chunks in its index.html
    // (modulepreload), so they load beside the entry rather than after it (issue 19).
    manifest: true,
    chunkSizeWarningLimit: 900,
  },
});
