import { lazy, Suspense, useState } from 'react';
import { Image, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from '../lib/i18n';
import { IMAGE_SIZES } from '@sesame/shared';

const ImageModalDialog = lazy(() => import('./ImageModalDialog'));

/**
 * The full-size image dialog of `src`, its code loaded the first time `show` is called; once
 * opened it stays mounted, so its closing transition plays. Used by the thumbnail below and by
 * a list's 'Voir la pièce' (ViewDocument).
 */
export function useImageDialog(src: string, alt: string) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);
  const show = () => {
    setWanted(true);
    setOpen(true);
  };
  const dialog = wanted ? (
    <Suspense fallback={null}>
      <ImageModalDialog
        src={src}
        alt={alt}
        opened={open}
        onClose={() => setOpen(false)}
        closeLabel={t('close')}
      />
    </Suspense>
  ) : null;
  return { show, dialog };
}

/** A thumbnail that opens the full-size image in a modal (whose code loads on the first click). */
export function ImageModal({
  src,
  alt,
  size = IMAGE_SIZES.medium,
}: {
  src: string | null | undefined;
  alt: string;
  size?: number;
}) {
  const { t } = useTranslation();
  const { show, dialog } = useImageDialog(src ?? '', alt);
  if (!src)
    return (
      <Text c="dimmed" size="sm">
        {t('noImage')}
      </Text>
    );
  const isPdf = /\.pdf(\?|$)/.test(src) || src.includes('application/pdf');
  if (isPdf) {
    return (
      <a href={src} target="_blank" rel="noreferrer">
        {t('openDocument')}
      </a>
    );
  }
  return (
    <>
      <UnstyledButton onClick={show} aria-label={t('enlargeImage', { name: alt })}>
        <Image src={src} alt={alt} w={size} h={size} fit="cover" radius="sm" />
      </UnstyledButton>
      {dialog}
    </>
  );
}
