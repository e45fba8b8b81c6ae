import { lazy, Suspense, useState } from 'react';
import { Image, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from '../lib/i18n';
import { IMAGE_SIZES } from '@sesame/shared';

const ImageModalDialog = lazy(() => import('./ImageModalDialog'));

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
  const [open, setOpen] = useState(false);
  // Once opened, the dialog stays mounted: its closing transition plays.
  const [wanted, setWanted] = useState(false);
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
      <UnstyledButton
        onClick={() => {
          setWanted(true);
          setOpen(true);
        }}
        aria-label={t('enlargeImage', { name: alt })}
      >
        <Image src={src} alt={alt} w={size} h={size} fit="cover" radius="sm" />
      </UnstyledButton>
      {wanted && (
        <Suspense fallback={null}>
          <ImageModalDialog
            src={src}
            alt={alt}
            opened={open}
            onClose={() => setOpen(false)}
            closeLabel={t('close')}
          />
        </Suspense>
      )}
    </>
  );
}
