/** A document's Markdown shown as it will read (lib's blocks as React elements, never HTML). */
import { Fragment } from 'react';
import { List, Stack, Text, Title } from '@mantine/core';
import { markdownBlocks, type Inline } from '../lib/visitor-types';
import '@mantine/core/styles/List.css';

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

export function Markdown({ source, lang }: { source: string; lang?: string }) {
  return (
    <Stack gap="xs" lang={lang}>
      {markdownBlocks(source).map((block, i) => {
        if (block.kind === 'heading') {
          return (
            <Title
              key={i}
              order={(block.level + 2) as 3 | 4 | 5}
              size={block.level === 1 ? 'h4' : 'h5'}
            >
              <Inlines inlines={block.inlines} />
            </Title>
          );
        }
        if (block.kind === 'list') {
          return (
            <List key={i} type={block.ordered ? 'ordered' : 'unordered'} size="sm">
              {block.items.map((item, j) => (
                <List.Item key={j}>
                  <Inlines inlines={item} />
                </List.Item>
              ))}
            </List>
          );
        }
        return (
          <Text key={i} size="sm">
            <Inlines inlines={block.inlines} />
          </Text>
        );
      })}
    </Stack>
  );
}
