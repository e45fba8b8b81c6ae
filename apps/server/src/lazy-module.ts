/**
 * A library loaded by its first use and kept from then on, instead of at start: for the heavy
 * ones an idle server does not need (pdf-lib, resvg, openid-client), which `npm run bench -- memory` counts in
 * every idle server's memory when they are imported at the top of a module. Their types stay
 * imported as usual (`import type`), which costs nothing at run time.
 */
export function onFirstUse<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => (loading ??= load());
}
