/**
 * The company list's inline form (`?compid=`, spec §2 Company list, §5 Company edit):
 * name and description required, logo optional, sent with PUT /api/company/{id}.
 * The slug goes along unchanged: links and printed QR codes depend on it.
 */
import { useRef, useState, type FormEvent } from 'react';
import {
  Anchor,
  Button,
  CloseButton,
  FileInput,
  Group,
  Image,
  Paper,
  Stack,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  IMAGE_SIZES,
  LOGO_MAX_BYTES,
  LOGO_MEDIA_TYPES,
  companyInlineUpdateSchema,
  type Company,
} from '@sesame/shared';
import { useCompanyMessageText } from './CompanyForm';
import { FeedbackAlert, type Feedback } from './feedback';

interface InlineCompanyFormProps {
  company: Company;
  /** The full 'Editer l'Entreprise' page of this company. */
  fullEditPath: string;
  pending: boolean;
  serverErrors: Record<string, string>;
  feedback: Feedback | null;
  onSubmit: (form: FormData) => void;
  onClose: () => void;
}

export function InlineCompanyForm(props: InlineCompanyFormProps) {
  const { t } = useTranslation('companies');
  const messageText = useCompanyMessageText();
  const formRef = useRef<HTMLFormElement>(null);
  const { company } = props;
  const [name, setName] = useState(company.name);
  const [description, setDescription] = useState(company.description ?? '');
  const [logo, setLogo] = useState<File | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const shown = { ...props.serverErrors, ...errors };

  const clear = (field: string) =>
    setErrors((e) => {
      const next = { ...e };
      delete next[field];
      return next;
    });

  const logoProblem = (): string | undefined => {
    if (!logo) return undefined;
    if (logo.size === 0) return t('form.errors.fileInvalid');
    if (logo.size > LOGO_MAX_BYTES) return t('form.errors.fileTooLarge');
    if (!(LOGO_MEDIA_TYPES as readonly string[]).includes(logo.type)) {
      return t('form.errors.fileType');
    }
    return undefined;
  };

  const handleSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (props.pending) return;
    const parsed = companyInlineUpdateSchema.safeParse({ name, description, slug: company.slug });
    const next: Record<string, string> = {};
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0]);
        next[field] ??= messageText(issue.message, field);
      }
    }
    const fileProblem = logoProblem();
    if (fileProblem) next.logo = fileProblem;
    const first = Object.keys(next)[0];
    if (!parsed.success || first) {
      setErrors(next);
      formRef.current?.querySelector<HTMLElement>(`[data-field="${first}"]`)?.focus();
      return;
    }
    setErrors({});
    const form = new FormData();
    form.append('name', parsed.data.name);
    form.append('description', parsed.data.description);
    form.append('slug', company.slug);
    if (logo) form.append('logo', logo);
    props.onSubmit(form);
  };

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'lg' }} mb="lg" data-testid="inline-edit">
      <form ref={formRef} onSubmit={handleSubmit} noValidate>
        <Stack gap="md">
          <Group justify="space-between" wrap="nowrap">
            <Title order={2} size="h4">
              {t('list.inlineTitle', { name: company.name })}
            </Title>
            <CloseButton onClick={props.onClose} aria-label={t('list.inlineCancel')} />
          </Group>
          <TextInput
            label={t('fields.name')}
            value={name}
            onChange={(ev) => {
              setName(ev.currentTarget.value);
              clear('name');
            }}
            error={shown.name}
            required
            data-field="name"
            name="name"
            autoComplete="organization"
          />
          <Textarea
            label={t('fields.description')}
            value={description}
            onChange={(ev) => {
              setDescription(ev.currentTarget.value);
              clear('description');
            }}
            error={shown.description}
            required
            autosize
            minRows={2}
            maxRows={6}
            data-field="description"
            name="description"
          />
          <Group align="flex-end" wrap="nowrap" gap="md">
            {company.logo_url && (
              <Image
                src={company.logo_url}
                alt={t('form.currentLogo')}
                w={IMAGE_SIZES.medium}
                h={IMAGE_SIZES.medium}
                fit="contain"
                radius="sm"
              />
            )}
            <FileInput
              style={{ flex: 1 }}
              label={t('fields.logo')}
              description={t('form.logoKeep')}
              accept={LOGO_MEDIA_TYPES.join(',')}
              value={logo}
              onChange={(file) => {
                setLogo(file);
                clear('logo');
              }}
              clearable
              error={shown.logo}
              data-field="logo"
              name="logo"
            />
          </Group>
          <FeedbackAlert feedback={props.feedback} />
          <Group justify="space-between">
            <Anchor component={Link} to={props.fullEditPath} size="sm">
              {t('edit.allFields')}
            </Anchor>
            <Group gap="sm">
              <Button variant="default" onClick={props.onClose}>
                {t('list.inlineCancel')}
              </Button>
              <Button type="submit" loading={props.pending} disabled={props.pending}>
                {t('edit.submit')}
              </Button>
            </Group>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
