/**
 * Where a server's CPU went, read from a V8 `.cpuprofile` (node --cpu-prof): self
 * time summed by where the code lives (a package, a file of Sésame, Node's own
 * internals, the garbage collector), so a benchmark prints the split in plain text
 * and the next reader need not open DevTools to see what the floor is made of.
 */
import { readFile } from 'node:fs/promises';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** A short name for where a function lives. */
export function placeOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return 'node: internals';
  const dependency = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (dependency) return dependency[1]!;
  const own = url.match(/(apps\/[^/]+\/src\/.+|packages\/shared\/src\/.+|bench\/.+)$/);
  return own ? own[1]!.split('?')[0]! : url;
}

interface Share {
  name: string;
  ms: number;
}

function sorted(totals: Map<string, number>): Share[] {
  totals.delete('(idle)');
  return [...totals].map(([name, ms]) => ({ name, ms })).sort((a, b) => b.ms - a.ms);
}

/**
 * Three readings of a profile, idle left out: self time by place; self time by
 * function (a builtin such as JSON.stringify or an HMAC has no place of its own);
 * and inclusive time by place — what a package or a file of Sésame costs with all
 * it calls, each sample counted once per place on its stack.
 */
export async function readProfile(file: string) {
  const profile = JSON.parse(await readFile(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parentOf = new Map<number, number>();
  for (const n of profile.nodes) for (const child of n.children ?? []) parentOf.set(child, n.id);
  const placeOfNode = (n: ProfileNode) => placeOf(n.callFrame.url, n.callFrame.functionName);
  const self = new Map<string, number>();
  const functions = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, ms: number) =>
    map.set(key, (map.get(key) ?? 0) + ms);
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const node = byId.get(id);
    if (!node || node.callFrame.functionName === '(idle)') return;
    const place = placeOfNode(node);
    add(self, place, ms);
    add(functions, `${node.callFrame.functionName || '(anonymous)'} · ${place}`, ms);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parentOf.get(at)) {
      const up = byId.get(at);
      if (up) seen.add(placeOfNode(up));
    }
    for (const p of seen) add(inclusive, p, ms);
  });
  return { self: sorted(self), functions: sorted(functions), inclusive: sorted(inclusive) };
}

/** Prints where a server's busy time went, as shares of it. */
export async function printProfile(label: string, file: string, top = 12): Promise<void> {
  const { self, functions, inclusive } = await readProfile(file);
  const busy = self.reduce((sum, p) => sum + p.ms, 0);
  const share = (ms: number) => `${((ms / busy) * 100).toFixed(1).padStart(5)} %`;
  console.log(`  ${label}: ${(busy / 1000).toFixed(1)} s busy (${file})`);
  console.log('    self time by place:');
  for (const { name, ms } of self.slice(0, top)) console.log(`    ${share(ms)}  ${name}`);
  console.log('    self time by function:');
  for (const { name, ms } of functions.slice(0, top)) console.log(`    ${share(ms)}  ${name}`);
  console.log('    with what it calls, by place:');
  const meaningful = inclusive.filter(({ name }) => !name.startsWith('('));
  for (const { name, ms } of meaningful.slice(0, top)) console.log(`    ${share(ms)}  ${name}`);
}
