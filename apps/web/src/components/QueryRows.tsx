/**
 * A staff page's whole list as one query answers it (API keys, SCIM tokens, kiosks, visitor
 * types and documents): QueryState's loader, failure (the server's words, else `loadFailed`)
 * and empty line, then the rows in their `order` as a table, or as cards on a phone.
 */
import type { ReactNode } from 'react';
import { serverMessageOf } from '../lib/api-client';
import { QueryState, type QueryLike } from './QueryState';
import { ResponsiveRows, type ResponsiveRowsProps } from './ResponsiveRows';

export function QueryRows<T>(
  props: Omit<ResponsiveRowsProps<T>, 'rows' | 'offset'> & {
    query: QueryLike<T[]>;
    loadFailed: string;
    empty: ReactNode;
    /** The rows as the list shows them; as answered by default. */
    order?: (rows: T[]) => T[];
  },
) {
  const { query, loadFailed, empty, order, ...rows } = props;
  return (
    <QueryState
      query={query}
      errorText={(error) => serverMessageOf(error) ?? loadFailed}
      isEmpty={(answer) => answer.length === 0}
      empty={empty}
    >
      {(answer) => <ResponsiveRows {...rows} rows={order ? order(answer) : answer} offset={0} />}
    </QueryState>
  );
}
