/**
 * Whether a build is up to date with its sources. Each build writes a stamp into
 * its output folder: a hash of the content of every file it was built from. A start
 * rebuilds a part only when its stamp is missing (never built, or the folder was
 * emptied by another build) or differs from the sources' hash now. Content, not
 * modification times: a checkout that rewrites files unchanged does not rebuild, and
 * an edit is seen even if it keeps the file's time.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');

export type Part = 'server' | 'web';
export const PARTS: Part[] = ['server', 'web'];

interface PartFiles {
  /** Files and folders (every file below, but node_modules, dist and test) the build reads. */
  inputs: string[];
  /** The build's output folder, where the stamp lives. */
  output: string;
  /** A file the start needs in the output (a folder emptied by a failed build has none). */
  entry: string;
}

/** Shared by both parts: the workspace package, the locked dependency versions, this recipe. */
const COMMON = [
  'packages/shared/src',
  'packages/shared/package.json',
  'package-lock.json',
  'tsconfig.base.json',
  'tools/build.ts',
  'tools/build-stamp.ts',
];

export const PART_FILES: Record<Part, PartFiles> = {
  server: {
    inputs: [
      'apps/server/src',
      'apps/server/scripts',
      'apps/server/package.json',
      'tsconfig.json',
      ...COMMON,
    ],
    output: 'apps/server/dist',
    entry: 'main.js',
  },
  web: {
    // Every file at the top of apps/web (index.html, vite.config.ts, package.json, …).
    inputs: ['apps/web/*', 'apps/web/src', 'apps/web/public', 'apps/web/scripts', ...COMMON],
    output: 'apps/web/dist',
    entry: 'index.html',
  },
};

const STAMP = '.build-stamp.json';
const SKIPPED = new Set(['node_modules', 'dist', 'test', '.git']);

export interface Stamp {
  part: Part;
  hash: string;
  files: number;
  builtAt: string;
}

async function filesUnder(root: string, relative: string, out: string[]): Promise<void> {
  const full = path.join(root, relative);
  let entries;
  try {
    entries = await readdir(full, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    if (code === 'ENOTDIR') {
      out.push(relative);
      return;
    }
    throw error;
  }
  for (const entry of entries) {
    if (SKIPPED.has(entry.name)) continue;
    const child = path.join(relative, entry.name);
    if (entry.isDirectory()) await filesUnder(root, child, out);
    else if (entry.isFile()) out.push(child);
  }
}

/** The files a part is built from, relative to `root`, sorted. */
export async function inputFiles(part: Part, root = ROOT): Promise<string[]> {
  const files: string[] = [];
  for (const input of PART_FILES[part].inputs) {
    if (input.endsWith('/*')) {
      const folder = input.slice(0, -2);
      const entries = await readdir(path.join(root, folder), { withFileTypes: true }).catch(
        () => [],
      );
      for (const entry of entries) if (entry.isFile()) files.push(path.join(folder, entry.name));
    } else await filesUnder(root, input, files);
  }
  return [...new Set(files)].sort();
}

/** The hash of every input file's name and content. */
export async function sourceHash(
  part: Part,
  root = ROOT,
): Promise<{ hash: string; files: number }> {
  const files = await inputFiles(part, root);
  const hash = createHash('sha256');
  const contents = await Promise.all(files.map((file) => readFile(path.join(root, file))));
  files.forEach((file, i) => {
    hash.update(`${file}\0${contents[i]!.length}\0`);
    hash.update(contents[i]!);
  });
  return { hash: hash.digest('hex'), files: files.length };
}

export async function readStamp(part: Part, root = ROOT): Promise<Stamp | null> {
  const { output, entry } = PART_FILES[part];
  if (!existsSync(path.join(root, output, entry))) return null;
  try {
    return JSON.parse(await readFile(path.join(root, output, STAMP), 'utf8')) as Stamp;
  } catch {
    return null;
  }
}

/** Written after a build succeeded, with the hash taken before it began. */
export async function writeStamp(
  part: Part,
  source: { hash: string; files: number },
  root = ROOT,
): Promise<void> {
  const file = path.join(root, PART_FILES[part].output, STAMP);
  const stamp: Stamp = { part, ...source, builtAt: new Date().toISOString() };
  await writeFile(`${file}.tmp`, `${JSON.stringify(stamp, null, 2)}\n`);
  await rename(`${file}.tmp`, file);
}

export interface Freshness {
  part: Part;
  upToDate: boolean;
  /** Why a build is needed, in words; null when up to date. */
  reason: string | null;
  source: { hash: string; files: number };
}

export async function freshness(part: Part, root = ROOT): Promise<Freshness> {
  const [source, stamp] = await Promise.all([sourceHash(part, root), readStamp(part, root)]);
  if (!stamp) return { part, upToDate: false, reason: 'not built yet', source };
  if (stamp.hash !== source.hash)
    return { part, upToDate: false, reason: 'sources changed since the last build', source };
  return { part, upToDate: true, reason: null, source };
}
