/**
 * The company list's inline form (`?compid=`, spec §2 Company list, §5 Company edit):
 * name and description required, logo optional, sent with PUT /api/company/{id}.
 * The slug goes along unchanged: links and printed QR codes depend on it.
 */
import {
  Anchor,
  Button,
  CloseButton,
  Group,
  Paper,
  Stack,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useTranslation } from '../../../lib/i18n';
import { Link } from 'react-router';
import { companyInlineUpdateSchema, type Company } from '@sesame/shared';
import { FeedbackAlert } from '../../../components/FeedbackAlert';
import type { Save } from '../../../lib/use-save';
import { useSchemaForm } from '../../../lib/use-schema-form';
import { logoProblem } from '../lib/logo';
import { LogoField } from './LogoField';

interface InlineCompanyFormProps {
  company: Company;
  /** The full 'Éditer l'Entreprise' page of this company. */
  fullEditPath: string;
  /** The mutation is in flight. */
  sending: boolean;
  /** The save: its banner under the form, and the submit. */
  save: Save<FormData>;
  onClose: () => void;
}

export function InlineCompanyForm(props: InlineCompanyFormProps) {
  const { t } = useTranslation('companies');
  const { company } = props;
  const pending = props.sending || props.save.saved;
  const { form, submit } = useSchemaForm(companyInlineUpdateSchema, {
    ns: 'companies',
    initialValues: {
      name: company.name,
      description: company.description ?? '',
      logo: null as File | null,
    },
    // The slug goes along unchanged: links and printed QR codes depend on it.
    toInput: ({ name, description }) => ({ name, description, slug: company.slug }),
    check: ({ logo }) => ({ logo: logoProblem(logo, false, t) }),
    onSubmit: (data, { logo }) => {
      const body = new FormData();
      body.append('name', data.name);
      body.append('description', data.description);
      body.append('slug', company.slug);
      if (logo) body.append('logo', logo);
      return props.save.submit(body);
    },
  });

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} mb="lg" data-testid="inline-edit">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Group justify="space-between" wrap="nowrap">
            <Title order={2} size="h4">
              {t('list.inlineTitle', { name: company.name })}
            </Title>
            <CloseButton onClick={props.onClose} aria-label={t('list.inlineCancel')} />
          </Group>
          <TextInput
            label={t('fields.name')}
            {...form.getInputProps('name')}
            required
            name="name"
            autoComplete="organization"
          />
          <Textarea
            label={t('fields.description')}
            {...form.getInputProps('description')}
            required
            autosize
            minRows={2}
            maxRows={6}
            name="description"
          />
          <LogoField
            currentUrl={company.logo_url}
            description={t('form.logoKeep')}
            inputProps={form.getInputProps('logo')}
          />
          <FeedbackAlert feedback={props.save.feedback} />
          <Group justify="space-between">
            <Anchor component={Link} to={props.fullEditPath} size="sm">
              {t('edit.allFields')}
            </Anchor>
            <Group gap="sm">
              <Button variant="default" onClick={props.onClose}>
                {t('list.inlineCancel')}
              </Button>
              <Button type="submit" loading={pending} disabled={pending}>
                {t('edit.submit')}
              </Button>
            </Group>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
