/** ImageModal's dialog: loaded when an image is first enlarged, not with the page. */
import { Image, Modal } from '@mantine/core';

export default function ImageModalDialog(props: {
  src: string;
  alt: string;
  opened: boolean;
  onClose: () => void;
  closeLabel: string;
}) {
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={props.alt}
      size="auto"
      centered
      closeButtonProps={{ 'aria-label': props.closeLabel }}
    >
      <Image src={props.src} alt={props.alt} maw="90vw" mah="80vh" fit="contain" />
    </Modal>
  );
}
