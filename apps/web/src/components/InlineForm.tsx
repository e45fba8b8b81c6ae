/**
 * A staff list page's form opened in place, above its table (a site's, a kiosk's): a
 * bordered section named by its h2, the schema's summary of a refused submit, the fields,
 * what the server answered, then save and cancel. `PanelSection` is the same frame for
 * what else such a page shows in place (a kiosk's pairing code).
 */
import { useEffect, type FormEvent, type ReactNode } from 'react';
import { Grid, Paper, Stack, Text, Title, type PaperProps } from '@mantine/core';
import type { Feedback } from './FeedbackAlert';
import { SaveOrCancel, SubmitSummary } from './FormFrame';

/** The bordered section, named by the h2 whose id is `titleId`. */
export function PanelSection({
  titleId,
  children,
  ...paper
}: PaperProps & { titleId: string; children: ReactNode; 'data-testid'?: string }) {
  return (
    <Paper
      withBorder
      radius="lg"
      p={{ base: 'md', sm: 'xl' }}
      {...paper}
      component="section"
      aria-labelledby={titleId}
    >
      {children}
    </Paper>
  );
}

/** A panel's h2 (the `titleId` its PanelSection names it by) and the sentence that says what it is for. */
export function PanelHeading(props: { titleId: string; title: string; intro: string }) {
  return (
    <>
      <Title order={2} size="h4" id={props.titleId}>
        {props.title}
      </Title>
      <Text size="sm" c="dimmed">
        {props.intro}
      </Text>
    </>
  );
}

/** A field in the form's grid: the whole width on a phone, `span` of 12 from `sm`. */
export function col(node: ReactNode, span = 6) {
  return <Grid.Col span={{ base: 12, sm: span }}>{node}</Grid.Col>;
}

/** Opened from the list's buttons: the keyboard lands in the form, on `field`. */
export function useFocusOnOpen(
  form: { getInputNode: (field: string) => HTMLElement | null },
  field: string,
) {
  useEffect(() => {
    const node = form.getInputNode(field);
    node?.focus();
    node?.scrollIntoView?.({ block: 'center' });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once, as the form opens
  }, []);
}

export function InlineForm(props: {
  titleId: string;
  title: string;
  /** The first message of the last refused submit (the schema form's). */
  summary: string | null;
  /** What the server answered the last save. */
  feedback: Feedback | null;
  submit: (event?: FormEvent) => void;
  busy: boolean;
  submitLabel: string;
  cancelLabel: string;
  onCancel: () => void;
  /** The fields, each a `col(...)`. */
  children: ReactNode;
}) {
  return (
    <PanelSection titleId={props.titleId}>
      <form onSubmit={props.submit} noValidate>
        <Stack gap="md">
          <Title order={2} size="h4" id={props.titleId}>
            {props.title}
          </Title>
          <SubmitSummary summary={props.summary} feedback={props.feedback} />
          <Grid gap="md">{props.children}</Grid>
          <SaveOrCancel
            feedback={props.feedback}
            busy={props.busy}
            submitLabel={props.submitLabel}
            cancelLabel={props.cancelLabel}
            onCancel={props.onCancel}
          />
        </Stack>
      </form>
    </PanelSection>
  );
}
