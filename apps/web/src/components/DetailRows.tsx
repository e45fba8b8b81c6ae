/**
 * A card's label / value rows (the visitor's card, the waiting recap, the host's
 * decision page): one label column, the value beside it, and a row whose value is
 * missing left out rather than shown empty.
 */
import { Group, Stack, Text, type GroupProps } from '@mantine/core';

/** A row: its label, and its value (`null` or empty: the row is not shown). */
export type DetailRow = [label: string, value: string | null];

export function DetailRows({
  rows,
  labelWidth = 110,
  align = 'flex-start',
}: {
  rows: DetailRow[];
  /** The label column's width, so the values line up. */
  labelWidth?: number;
  /** How a label stands beside a value that wraps. */
  align?: GroupProps['align'];
}) {
  return (
    <Stack gap={4}>
      {rows
        .filter(([, value]) => value)
        .map(([label, value]) => (
          <Group key={label} gap="xs" wrap="nowrap" align={align}>
            <Text size="sm" c="dimmed" miw={labelWidth}>
              {label}
            </Text>
            <Text size="sm" fw={500}>
              {value}
            </Text>
          </Group>
        ))}
    </Stack>
  );
}
