/**
 * The parts every staff form shares around its fields (a form opened in place, a dialog's):
 * above them, the first message of a refused submit until the server has answered; below, what
 * the server answered the last save, then save and cancel, both held while it saves.
 */
import { Button, Group, type MantineColor } from '@mantine/core';
import { FeedbackAlert, type Feedback } from './FeedbackAlert';

/** The schema form's summary of a refused submit; the server's answer, once there, says it. */
export function SubmitSummary(props: { summary: string | null; feedback: Feedback | null }) {
  if (!props.summary || props.feedback) return null;
  return <FeedbackAlert feedback={{ color: 'red', title: props.summary }} />;
}

export function SaveOrCancel(props: {
  /** What the server answered the last save. */
  feedback: Feedback | null;
  busy: boolean;
  submitLabel: string;
  /** The submit's colour when it is not the theme's (a decision's red or green). */
  submitColor?: MantineColor;
  cancelLabel: string;
  onCancel: () => void;
}) {
  return (
    <>
      <FeedbackAlert feedback={props.feedback} />
      <Group>
        <Button type="submit" color={props.submitColor} loading={props.busy} disabled={props.busy}>
          {props.submitLabel}
        </Button>
        <Button variant="default" onClick={props.onCancel} disabled={props.busy}>
          {props.cancelLabel}
        </Button>
      </Group>
    </>
  );
}
