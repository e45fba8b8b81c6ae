import { useTranslation } from '../../lib/i18n';
import { ViewDocument } from '../ViewDocument';

/**
 * A visitor's identity document in staff screens (the request list, an event's participants,
 * the validation page): 'Voir la pièce', which opens it — an image in a dialog, a PDF in a new
 * tab. No thumbnail: the document is fetched, and its view audited, only when it is opened
 * (issue 27). `src` is the signed URL the server gave.
 */
export function IdentityDocument({
  src,
  type,
  name,
}: {
  src: string | null;
  type: string | null;
  name: string;
}) {
  const { t } = useTranslation('visitors');
  return <ViewDocument src={src} type={type} name={name} alt={t('document.alt', { name })} />;
}
