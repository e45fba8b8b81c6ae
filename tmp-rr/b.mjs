import { build } from '../apps/web/node_modules/vite/dist/node/index.js';
import { brotliCompressSync, gzipSync } from 'node:zlib';
for (const name of ['decl', 'data']) {
  const out = await build({ root: process.cwd(), logLevel: 'silent', configFile: false, build: { write: false, rollupOptions: { input: `./${name}.jsx` } }, define: { 'process.env.NODE_ENV': '"production"' } });
  const files = (Array.isArray(out) ? out[0] : out).output.filter((f) => f.type === 'chunk');
  const code = files.map((f) => f.code).join('\n');
  console.log(name, (code.length / 1024).toFixed(1), 'KB min', (brotliCompressSync(Buffer.from(code)).length / 1024).toFixed(1), 'KB br');
}
