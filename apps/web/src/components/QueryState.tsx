/**
 * What a screen shows until its data is there, said the same way everywhere: a
 * loader while it loads, an alert when it failed (the screen chooses the words,
 * usually from the status and the server's message), a line when there is nothing.
 */
import type { ReactNode } from 'react';
import { Alert, Center, Loader, Text } from '@mantine/core';
import { useTranslation } from '../lib/i18n';

export interface QueryLike<T> {
  isPending: boolean;
  isError: boolean;
  error: unknown;
  data: T | undefined;
}

export function QueryState<T>(props: {
  query: QueryLike<T>;
  /** The loader's accessible name; "Chargement…" by default. */
  loadingLabel?: string;
  errorText: (error: unknown) => ReactNode;
  /** The alert's title, above `errorText`. */
  errorTitle?: string;
  /** The alert's test id, for a page whose tests look for its failure. */
  errorTestId?: string;
  isEmpty?: (data: T) => boolean;
  empty?: ReactNode;
  children: (data: T) => ReactNode;
}) {
  const { t } = useTranslation('common');
  const { query } = props;
  if (query.isError) {
    return (
      <Alert color="red" role="alert" title={props.errorTitle} data-testid={props.errorTestId}>
        {props.errorText(query.error)}
      </Alert>
    );
  }
  if (query.isPending || query.data === undefined) {
    return (
      <Center py="xl">
        <Loader aria-label={props.loadingLabel ?? t('loading')} />
      </Center>
    );
  }
  if (props.isEmpty?.(query.data)) {
    return (
      <Text py="lg" c="dimmed" data-testid="empty">
        {props.empty}
      </Text>
    );
  }
  return <>{props.children(query.data)}</>;
}
