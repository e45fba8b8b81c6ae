/**
 * `npx tsx apps/server/scripts/pglite-template.ts`: remakes the committed template a new
 * embedded database starts from (src/db/pglite-template.ts), after a PGlite upgrade.
 * It runs PGlite's initdb once, here: about 650 MB for a few seconds.
 */
import { installedPgliteVersion, TEMPLATE_DIR, writeTemplate } from '../src/db/pglite-template';

await writeTemplate();
console.log(`PGlite ${installedPgliteVersion()}'s empty data folder written to ${TEMPLATE_DIR}.`);
