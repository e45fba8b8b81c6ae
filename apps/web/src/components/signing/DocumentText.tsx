/**
 * A document's text as the visitor reads it before signing: markdown.ts's blocks as React
 * elements (headings, paragraphs, lists, bold, italic). Never HTML: whatever a document's
 * author typed, `<script>` included, reads as text.
 */
import { createElement, Fragment } from 'react';
import { markdownBlocks, type Inline } from './markdown';

function Inlines({ inlines }: { inlines: Inline[] }) {
  return (
    <>
      {inlines.map((inline, i) => (
        <Fragment key={i}>
          {inline.strong ? (
            <strong>{inline.text}</strong>
          ) : inline.em ? (
            <em>{inline.text}</em>
          ) : (
            inline.text
          )}
        </Fragment>
      ))}
    </>
  );
}

/** `headingLevel`: the HTML level of a `#` heading (its page's own heading is above it). */
export function DocumentText({
  source,
  headingLevel = 3,
}: {
  source: string;
  headingLevel?: number;
}) {
  return (
    <div className="sesame-document-text">
      {markdownBlocks(source).map((block, i) => {
        if (block.kind === 'heading') {
          const level = Math.min(6, headingLevel + block.level - 1);
          return createElement(`h${level}`, { key: i }, <Inlines inlines={block.inlines} />);
        }
        if (block.kind === 'list') {
          const items = block.items.map((item, j) => (
            <li key={j}>
              <Inlines inlines={item} />
            </li>
          ));
          return block.ordered ? <ol key={i}>{items}</ol> : <ul key={i}>{items}</ul>;
        }
        return (
          <p key={i}>
            <Inlines inlines={block.inlines} />
          </p>
        );
      })}
    </div>
  );
}
