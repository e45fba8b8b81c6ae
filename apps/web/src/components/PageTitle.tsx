import { Title, type TitleProps } from '@mantine/core';

/** The screen's heading (one h1 per screen). */
export function PageTitle({ children, ...props }: TitleProps) {
  return (
    <Title order={1} size="h2" mb="md" {...props}>
      {children}
    </Title>
  );
}
