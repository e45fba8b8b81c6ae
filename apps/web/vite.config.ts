import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { kioskServiceWorker } from './scripts/kiosk-service-worker';

const MANTINE = String.raw`@mantine[\\/]core[\\/]esm[\\/]`;
const WEB_LIB = String.raw`apps[\\/]web[\\/]src[\\/]lib[\\/]`;
const FORM_LAYER = new RegExp(
  String.raw`${WEB_LIB}(form-state|use-schema-form|schema-errors)\.ts$|` +
    String.raw`${MANTINE}components[\\/](Input|InputBase|TextInput|PasswordInput)[\\/]`,
);
const FORM_INPUTS = new RegExp(
  String.raw`${MANTINE}(components[\\/](ActionIcon|Checkbox|Combobox[\\/]ComboboxChevron|FileButton|FileInput|NativeSelect)|utils[\\/](InlineInput|InputsGroupFieldset))[\\/]`,
);

export default defineConfig({
  // The kiosk's service worker, dist/kiosk-sw.js (issue 29): the kiosk app opens offline.
  plugins: [react(), kioskServiceWorker()],
  server: { proxy: { '/api': 'http://localhost:3000' } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // dist/.vite/manifest.json: the server names a public page's chunks in its index.html
    // (modulepreload), so they load beside the entry rather than after it (issue 19).
    manifest: true,
    chunkSizeWarningLimit: 900,
    // A page loaded on demand used to carry the list of every chunk it imports, so the helper
    // could preload them: 13 KB of file names in the entry, 3-5 KB brotli on every public
    // page (issue 19). The browser finds a chunk's imports as it reads it; the server names a
    // public page's chunks in its HTML (modulepreload). CSS is still loaded with its chunk,
    // and index.html still preloads the entry's own imports.
    modulePreload: {
      resolveDependencies: (_file, deps, { hostType }) =>
        hostType === 'html' ? deps : deps.filter((dep) => dep.endsWith('.css')),
    },
    // Fewer, larger chunks where the public pages load them (issue 19). Left to itself the
    // bundler cut the code the pages share into 30-60 small files, each with its import and
    // export lists (hashed names that barely compress): 8 KB brotli on a form. Measured with
    // `npm run bench -- size`, brotli KB before → after: login 136 → 115, home 121 → 107,
    // visitor form 149 → 132, event form 152 → 135, thank-you 124 → 110, waiting 138 → 126.
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // Everything the entry imports statically, in one file: every page needs it.
            { name: 'shell', tags: ['$initial'], priority: 2 },
            // The form layer and the text inputs: the login and every form.
            { name: 'form-layer', test: FORM_LAYER, priority: 1 },
            // The other inputs of the visitor and event forms (and of staff forms).
            { name: 'form-inputs', test: FORM_INPUTS },
          ],
        },
      },
    },
  },
});
