/**
 * A table's horizontal scroll (issue 18, WCAG 2.1.1): the scrolling box is a named region in the
 * tab order, so the keyboard scrolls a table wider than the screen with the arrow keys even when
 * none of its cells holds a link or a button; it shows the focus ring like every control.
 */
import type { ReactNode } from 'react';
import { ScrollArea, type ScrollAreaProps } from '@mantine/core';

export function TableScroll({
  label,
  children,
  ...props
}: { label: string; children: ReactNode } & Omit<ScrollAreaProps, 'viewportProps'>) {
  return (
    <ScrollArea
      {...props}
      viewportProps={{
        tabIndex: 0,
        role: 'region',
        'aria-label': label,
        className: 'mantine-focus-auto',
      }}
    >
      {children}
    </ScrollArea>
  );
}
