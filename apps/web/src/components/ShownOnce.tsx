/**
 * A secret shown once (an API key and a webhook's signing secret, issue 34; a SCIM token,
 * issue 33), in a dialog with its "Copier" button and the sentence that it will not be shown
 * again. Closing it forgets the secret: nothing else on the page ever holds it.
 */
import { Alert, Button, Group, Modal, Stack } from '@mantine/core';
import { CopyValue } from './CopyValue';

export function ShownOnce(props: {
  /** The secret; null: the dialog is closed. */
  secret: string | null;
  title: string;
  warning: string;
  label: string;
  done: string;
  onClose: () => void;
  testId: string;
  /** The value's own test id; `{testId}-value` by default. */
  valueTestId?: string;
}) {
  return (
    <Modal
      opened={props.secret !== null}
      onClose={props.onClose}
      title={props.title}
      size="lg"
      closeOnClickOutside={false}
    >
      {props.secret !== null && (
        <Stack gap="md" data-testid={props.testId}>
          <Alert color="orange" role="alert">
            {props.warning}
          </Alert>
          <CopyValue
            label={props.label}
            value={props.secret}
            testId={props.valueTestId ?? `${props.testId}-value`}
          />
          <Group justify="flex-end">
            <Button onClick={props.onClose}>{props.done}</Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
