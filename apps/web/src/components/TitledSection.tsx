import type { ReactNode } from 'react';
import { Paper, Title, type PaperProps, type TitleProps } from '@mantine/core';

/** A bordered section of a page, named by its h2 (`aria-labelledby` the title's `id`). */
export function TitledSection({
  id,
  title,
  titleSize,
  children,
  ...paper
}: PaperProps & {
  id: string;
  title: ReactNode;
  titleSize: TitleProps['size'];
  children: ReactNode;
}) {
  return (
    <Paper withBorder p="md" radius="md" {...paper} component="section" aria-labelledby={id}>
      <Title order={2} size={titleSize} mb="sm" id={id}>
        {title}
      </Title>
      {children}
    </Paper>
  );
}
