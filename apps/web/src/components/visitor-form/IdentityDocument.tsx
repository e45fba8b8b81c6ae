import { Anchor } from '@mantine/core';
import { useTranslation } from '../../lib/i18n';
import { ImageModal } from '../ImageModal';

/**
 * A visitor's identity document in staff screens: an image thumbnail that opens
 * full size in a modal, or a link for a PDF. `src` is the signed URL the server gave.
 */
export function IdentityDocument({
  src,
  type,
  name,
  size,
}: {
  src: string | null;
  type: string | null;
  name: string;
  size?: number;
}) {
  const { t } = useTranslation('visitors');
  if (src && type === 'application/pdf') {
    return (
      <Anchor href={src} target="_blank" rel="noreferrer" size="sm">
        {t('document.openPdf')}
      </Anchor>
    );
  }
  return <ImageModal src={src} alt={t('document.alt', { name })} size={size} />;
}
