/**
 * A sentence of the locale files whose `backticked` parts are technical names (a header, an
 * event type), set in monospace: the sentence stays whole for the translators.
 */
import { Code, Text, type TextProps } from '@mantine/core';
import '@mantine/core/styles/Code.css';

export function CodeText({ text, ...props }: TextProps & { text: string }) {
  const parts = text.split('`');
  return (
    <Text {...props}>
      {parts.map((part, i) =>
        i % 2 === 1 ? (
          <Code key={i} style={{ overflowWrap: 'anywhere' }}>
            {part}
          </Code>
        ) : (
          part
        ),
      )}
    </Text>
  );
}
