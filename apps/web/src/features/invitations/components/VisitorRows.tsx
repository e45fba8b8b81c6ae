/**
 * The invite form's visitors (issue 30): one line each (first name, last name, e-mail, phone,
 * organisation), added and removed; each field's message under it, from the shared schema's
 * `visitors.N.field` issues or the server's.
 */
import { useEffect, useRef } from 'react';
import { Button, Grid, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import type { FormState } from '../../../lib/form-state';
import { useTranslation } from '../../../lib/i18n';
import {
  VISITOR_FIELDS,
  emptyVisitor,
  type InviteValues,
  type VisitorField,
  type VisitorRow,
} from '../lib/invitations';

export function VisitorRows({ form }: { form: FormState<InviteValues> }) {
  const { t } = useTranslation('invitations');
  const rows = form.values.visitors;
  /** A line just added: the keyboard goes to its first name. */
  const added = useRef<string | null>(null);

  useEffect(() => {
    if (!added.current) return;
    const index = rows.findIndex((row) => row.key === added.current);
    added.current = null;
    if (index >= 0) form.getInputNode(`visitors.${index}.firstname`)?.focus();
  });

  const setRows = (next: VisitorRow[]) => form.setFieldValue('visitors', next);
  const change = (index: number, name: VisitorField, value: string) => {
    setRows(rows.map((row, i) => (i === index ? { ...row, [name]: value } : row)));
    form.clearFieldError(`visitors.${index}.${name}`);
  };
  const add = () => {
    const row = emptyVisitor();
    added.current = row.key;
    setRows([...rows, row]);
  };
  const remove = (index: number) => {
    // The messages of the lines below move up with them.
    const errors: Record<string, string> = {};
    for (const [path, message] of Object.entries(form.errors)) {
      if (!message) continue;
      const match = /^visitors\.(\d+)\.(\w+)$/.exec(path);
      if (!match) errors[path] = message;
      else if (Number(match[1]) < index) errors[path] = message;
      else if (Number(match[1]) > index)
        errors[`visitors.${Number(match[1]) - 1}.${match[2]}`] = message;
    }
    setRows(rows.filter((_, i) => i !== index));
    form.setErrors(errors);
    const focus = Math.min(index, rows.length - 2);
    window.setTimeout(() => form.getInputNode(`visitors.${focus}.firstname`)?.focus(), 0);
  };

  return (
    <Stack gap="sm">
      {rows.map((row, index) => {
        const number = index + 1;
        const legendId = `invite-visitor-${row.key}`;
        return (
          <Paper
            key={row.key}
            withBorder
            radius="md"
            p="md"
            component="fieldset"
            aria-labelledby={legendId}
            data-testid="invite-visitor"
            style={{ margin: 0, minWidth: 0 }}
          >
            <Group justify="space-between" mb="xs" wrap="nowrap">
              <Text component="legend" fw={700} id={legendId} style={{ float: 'left' }}>
                {t('visitors.legend', { number })}
              </Text>
              {rows.length > 1 && (
                <Button
                  variant="subtle"
                  color="red.9"
                  size="xs"
                  onClick={() => remove(index)}
                  aria-label={t('visitors.removeOf', { number })}
                >
                  {t('visitors.remove')}
                </Button>
              )}
            </Group>
            <Grid gap="sm" style={{ clear: 'both' }}>
              {VISITOR_FIELDS.map((name) => {
                const path = `visitors.${index}.${name}`;
                return (
                  <Grid.Col key={name} span={{ base: 12, sm: name === 'organisation' ? 12 : 6 }}>
                    <TextInput
                      label={t(`fields.${name}`)}
                      value={row[name]}
                      onChange={(e) => change(index, name, e.currentTarget.value)}
                      error={form.errors[path]}
                      data-path={path}
                      name={path}
                      required={name === 'firstname' || name === 'lastname'}
                      description={
                        name === 'email' && index === 0 ? t('visitors.contactHint') : undefined
                      }
                      type={name === 'email' ? 'email' : name === 'phone' ? 'tel' : 'text'}
                      inputMode={name === 'email' ? 'email' : name === 'phone' ? 'tel' : undefined}
                      // The host types someone else's details: not their own.
                      autoComplete="off"
                      spellCheck={name === 'email' ? false : undefined}
                    />
                  </Grid.Col>
                );
              })}
            </Grid>
          </Paper>
        );
      })}
      <div>
        <Button variant="light" onClick={add} data-path="visitors">
          {t('visitors.add')}
        </Button>
        {form.errors.visitors && (
          <Text c="red.8" size="sm" mt={4} role="alert">
            {form.errors.visitors}
          </Text>
        )}
      </div>
    </Stack>
  );
}
