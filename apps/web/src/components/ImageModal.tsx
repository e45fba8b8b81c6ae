import { useState } from 'react';
import { Image, Modal, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { IMAGE_SIZES } from '@sesame/shared';

/** A thumbnail that opens the full-size image in a modal. */
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
      <UnstyledButton onClick={() => setOpen(true)} aria-label={t('enlargeImage', { name: alt })}>
        <Image src={src} alt={alt} w={size} h={size} fit="cover" radius="sm" />
      </UnstyledButton>
      <Modal
        opened={open}
        onClose={() => setOpen(false)}
        title={alt}
        size="auto"
        centered
        closeButtonProps={{ 'aria-label': t('close') }}
      >
        <Image src={src} alt={alt} maw="90vw" mah="80vh" fit="contain" />
      </Modal>
    </>
  );
}
