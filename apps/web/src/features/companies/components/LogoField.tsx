/**
 * The logo field of both company forms (the full one, and the list's inline one):
 * the current logo beside the file picker, so one sees what a new file replaces.
 */
import { FileInput, Group, Image } from '@mantine/core';
import type { InputProps } from '../../../lib/form-state';
import { useTranslation } from '../../../lib/i18n';
import { IMAGE_SIZES, LOGO_MEDIA_TYPES } from '@sesame/shared';

export function LogoField(props: {
  /** The logo stored now, if any. */
  currentUrl: string | null | undefined;
  description: string;
  required?: boolean;
  /** The form's `getInputProps('logo')`. */
  inputProps: InputProps;
}) {
  const { t } = useTranslation('companies');
  return (
    <Group align="flex-end" wrap="nowrap" gap="md">
      {props.currentUrl && (
        <Image
          src={props.currentUrl}
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
        description={props.description}
        accept={LOGO_MEDIA_TYPES.join(',')}
        {...props.inputProps}
        clearable
        required={props.required}
        name="logo"
      />
    </Group>
  );
}
