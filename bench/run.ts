export {};

/**
 * `npm run bench -- <name>`: runs one benchmark (or all with no name) and prints its figures.
 * Benchmarks are never part of `npm test`: tests check behaviour, benchmarks measure.
 */
const benches: Record<string, () => Promise<{ run: () => Promise<void> }>> = {
  checkin: () => import('./checkin'),
  size: () => import('./size'),
  lighthouse: () => import('./lighthouse'),
  memory: () => import('./memory'),
  exports: () => import('./exports'),
  purge: () => import('./purge'),
  onsite: () => import('./onsite'),
  start: () => import('./start'),
  kiosk: () => import('./kiosk'),
  invite: () => import('./invite'),
  cluster: () => import('./cluster'),
  dashboard: () => import('./dashboard'),
};

const names = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const selected = names.length ? names : Object.keys(benches);
for (const name of selected) {
  const load = benches[name];
  if (!load) {
    console.error(`unknown benchmark "${name}"; choose from: ${Object.keys(benches).join(', ')}`);
    process.exit(1);
  }
  console.log(`\n=== bench: ${name} ===`);
  await (await load()).run();
}
process.exit(0);
