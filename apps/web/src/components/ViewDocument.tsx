/**
 * A person's identity document in a staff list (issue 27): a 'Voir la pièce' button, never a
 * thumbnail. The browser fetches the document only when someone opens it, so the server's
 * `document.viewed` entry records a look that somebody chose to take — not every row a list
 * drew — and the list shows nobody's ID to whoever happens to open it.
 *
 * An image opens in ImageModal's dialog; any other type (a PDF, a Word file, or a type the
 * list does not say) opens in a new tab, where the server serves images inline and other
 * documents as downloads. `src` is the signed URL the server gave: it opens only with the
 * staff member's own session (the files cookie goes with the request).
 */
import { Button, Text } from '@mantine/core';
import { IMAGE_TYPES, isOneOf } from '@sesame/shared';
import { useTranslation } from '../lib/i18n';
import { useImageDialog } from './ImageModal';

export function ViewDocument({
  src,
  type,
  name,
  alt,
  photo = false,
}: {
  src: string | null | undefined;
  /** The document's media type; unknown: opened in a new tab. */
  type: string | null | undefined;
  /** Whose document it is: the button's accessible name says it. */
  name: string;
  /** The image's description in the dialog ('Pièce d'identité de …'). */
  alt: string;
  /** A member's photo rather than an identity document: the button says 'Voir la photo'. */
  photo?: boolean;
}) {
  const { t } = useTranslation();
  const { show, dialog } = useImageDialog(src ?? '', alt);
  if (!src) {
    return (
      <Text c="dimmed" size="sm">
        {t('document.none')}
      </Text>
    );
  }
  const label = t(photo ? 'document.viewPhotoOf' : 'document.viewOf', { name });
  const text = t(photo ? 'document.viewPhoto' : 'document.view');
  if (!type || !isOneOf(IMAGE_TYPES, type)) {
    return (
      <Button
        component="a"
        href={src}
        target="_blank"
        rel="noreferrer"
        size="xs"
        variant="light"
        aria-label={label}
        data-testid="view-document"
      >
        {text}
      </Button>
    );
  }
  return (
    <>
      <Button
        size="xs"
        variant="light"
        aria-label={label}
        aria-haspopup="dialog"
        data-testid="view-document"
        onClick={show}
      >
        {text}
      </Button>
      {dialog}
    </>
  );
}
