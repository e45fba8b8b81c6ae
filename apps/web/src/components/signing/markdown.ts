/**
 * A signed document's Markdown read into blocks (issue 31): `#`–`###` headings, `-`/`*` and
 * `1.` lists, paragraphs (lines joined, a blank line between two), `**bold**`, `*italic*` /
 * `_italic_`, and links written as their text followed by their address (`[text](url)` →
 * "text (url)"; nothing is a live link a visitor could be sent away by). Markup typed in a
 * document is text: the blocks are rendered as React elements, never as HTML. No React here:
 * `apps/web/test/signing.test.ts`.
 */

/** A run of text: plain, **bold** or *italic*. */
export interface Inline {
  text: string;
  strong?: boolean;
  em?: boolean;
}

export type Block =
  | { kind: 'heading'; level: 1 | 2 | 3; inlines: Inline[] }
  | { kind: 'paragraph'; inlines: Inline[] }
  | { kind: 'list'; ordered: boolean; items: Inline[][] };

/** `[text](url)` as text: "text (url)", or the address alone when the text is it. */
export function linksAsText(text: string): string {
  let out = '';
  let from = 0;
  for (;;) {
    const open = text.indexOf('[', from);
    const close = open < 0 ? -1 : text.indexOf('](', open + 1);
    const end = close < 0 ? -1 : text.indexOf(')', close + 2);
    const label = close < 0 ? '' : text.slice(open + 1, close);
    const url = end < 0 ? '' : text.slice(close + 2, end);
    if (open < 0 || close < 0 || end < 0 || label.includes('[') || /[\s]/.test(url)) {
      if (open < 0 || close < 0 || end < 0) break;
      out += text.slice(from, open + 1);
      from = open + 1;
      continue;
    }
    const words = label.trim();
    out +=
      text.slice(from, open) + (!url ? words : !words || words === url ? url : `${words} (${url})`);
    from = end + 1;
  }
  return out + text.slice(from);
}

/** `**bold**` and `*italic*` (or `_italic_`) in a line; anything else is text as written. */
export function parseInline(source: string): Inline[] {
  const text = linksAsText(source);
  const out: Inline[] = [];
  const pattern =
    /\*\*(.+?)\*\*|\*(\S(?:.*?\S)?)\*|(?<![\p{L}\p{N}])_(\S(?:.*?\S)?)_(?![\p{L}\p{N}])/gu;
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    const at = match.index;
    if (at > last) out.push({ text: text.slice(last, at) });
    if (match[1] !== undefined) out.push({ text: match[1], strong: true });
    else out.push({ text: match[2] ?? match[3] ?? '', em: true });
    last = at + match[0].length;
  }
  if (last < text.length) out.push({ text: text.slice(last) });
  return out;
}

/** A heading's text without its closing `#`s ("## Titre ##"). */
function withoutClosingHashes(text: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === '#') end -= 1;
  return (end < text.length && end > 0 && text[end - 1] !== ' ' ? text : text.slice(0, end)).trim();
}

/** The document's Markdown as blocks (headings, lists, paragraphs). */
export function markdownBlocks(source: string): Block[] {
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  let list: { ordered: boolean; items: Inline[][] } | null = null;
  const flush = () => {
    if (paragraph.length)
      blocks.push({ kind: 'paragraph', inlines: parseInline(paragraph.join(' ')) });
    paragraph = [];
    if (list) blocks.push({ kind: 'list', ...list });
    list = null;
  };
  for (const raw of source.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trim();
    const heading = /^(#{1,6})\s(.*)$/.exec(line);
    const bullet = /^[-*+]\s(.*)$/.exec(line);
    const numbered = /^\d+[.)]\s(.*)$/.exec(line);
    if (line === '') {
      flush();
    } else if (heading) {
      flush();
      blocks.push({
        kind: 'heading',
        level: Math.min(heading[1]!.length, 3) as 1 | 2 | 3,
        inlines: parseInline(withoutClosingHashes(heading[2]!)),
      });
    } else if (bullet || numbered) {
      const ordered = !!numbered;
      if (paragraph.length || (list && list.ordered !== ordered)) flush();
      list ??= { ordered, items: [] };
      list.items.push(parseInline((bullet ?? numbered)![1]!.trim()));
    } else {
      if (list) flush();
      paragraph.push(line);
    }
  }
  flush();
  return blocks;
}
