/**
 * The signing step loaded on demand: signature_pad, the Markdown reader and their words come
 * in their own chunk, fetched only when a visit has a document to sign (the public pages'
 * size budget).
 */
import { lazy, Suspense } from 'react';
import { Center, Loader } from '@mantine/core';
import type { SignDocumentsProps } from './SignDocuments';

const SignDocuments = lazy(() => import('./SignDocuments'));

export function LazySignDocuments(props: SignDocumentsProps & { loadingLabel: string }) {
  const { loadingLabel, ...rest } = props;
  return (
    <Suspense
      fallback={
        <Center py="lg">
          <Loader aria-label={loadingLabel} />
        </Center>
      }
    >
      <SignDocuments {...rest} />
    </Suspense>
  );
}
