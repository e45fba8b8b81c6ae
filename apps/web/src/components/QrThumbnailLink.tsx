import { Anchor, Image } from '@mantine/core';
import { Link } from 'react-router';

/** A list's QR code cell: the thumbnail, which opens the full-size QR page (poster, download). */
export function QrThumbnailLink(props: {
  to: string;
  src: string;
  alt: string;
  size: number;
  /** The link's accessible name, when the image's alt does not say where it leads. */
  label?: string;
}) {
  return (
    <Anchor component={Link} to={props.to} aria-label={props.label} display="inline-block">
      <Image src={props.src} alt={props.alt} w={props.size} h={props.size} fit="contain" />
    </Anchor>
  );
}
