import type { ReactNode } from 'react';
import { Alert, Button } from '@mantine/core';

/** The end of a staff form: what the server refused, if anything, then the submit button. */
export function FormSubmit(props: {
  error: ReactNode;
  errorTestId: string;
  pending: boolean;
  label: string;
}) {
  return (
    <>
      {props.error && (
        <Alert color="red" role="alert" data-testid={props.errorTestId}>
          {props.error}
        </Alert>
      )}
      <Button type="submit" size="md" loading={props.pending} fullWidth>
        {props.label}
      </Button>
    </>
  );
}
