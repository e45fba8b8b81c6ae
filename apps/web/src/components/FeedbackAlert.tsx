/** The outcome of a staff form's last attempt, under the form (success or failure). */
import { Alert } from '@mantine/core';

export interface Feedback {
  color: 'teal' | 'red';
  title: string;
  detail?: string;
}

export function FeedbackAlert({
  feedback,
  testId,
}: {
  feedback: Feedback | null;
  testId?: string;
}) {
  if (!feedback) return null;
  return (
    <Alert
      color={feedback.color}
      title={feedback.title}
      role={feedback.color === 'red' ? 'alert' : 'status'}
      data-testid={testId}
    >
      {feedback.detail}
    </Alert>
  );
}
