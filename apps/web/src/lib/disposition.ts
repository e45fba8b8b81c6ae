/**
 * The file name a Content-Disposition header gives. RFC 6266: `filename*` (RFC 5987, UTF-8,
 * percent-encoded) first, as browsers read it, so a person's export is saved under their
 * name as written ('sesame-donnees-awa-koné-2026-11-27.zip', issue 27); else the plain
 * `filename`. No DOM: the web's unit tests read it as it is.
 */
export function dispositionFileName(disposition: string | null): string | null {
  if (!disposition) return null;
  const extended = /(?:^|;)\s*filename\*\s*=\s*UTF-8''([^;\s]+)/i.exec(disposition)?.[1];
  if (extended) {
    try {
      return withoutPath(decodeURIComponent(extended));
    } catch {
      // A malformed escape: the plain name below still names the file.
    }
  }
  const plain = /(?:^|;)\s*filename\s*=\s*(?:"([^"]*)"|([^;\s]+))/i.exec(disposition);
  return withoutPath(plain?.[1] ?? plain?.[2] ?? '');
}

/** A name, never a path: what a folder separator would make of it is left out. */
function withoutPath(name: string): string | null {
  const base = name.split(/[/\\]/).pop()?.trim() ?? '';
  return base === '' || base === '.' || base === '..' ? null : base;
}
