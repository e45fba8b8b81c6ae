import { notifications } from '@mantine/notifications';
import { DELETE_TOAST_MS } from '@sesame/shared';
import { serverMessageOf } from '../lib/api-client';
import i18n from '../lib/i18n';

/** The texts of a record other than a user (the spec's wording is a user's). */
export interface DeleteTexts {
  /** The browser confirmation and the pending toast. */
  confirm?: string;
  pending?: string;
  success?: string;
  /** The failure toast, given what the server said (if anything). */
  failure?: (serverMessage: string | undefined) => string;
}

/**
 * The spec's delete: a browser confirmation, then 'Deleting {name}...', then
 * success or failure toasts that close after DELETE_TOAST_MS. Returns true when
 * deleted. The failure says the server's reason when it gave one.
 */
export async function confirmDelete(
  name: string,
  remove: () => Promise<unknown>,
  texts: DeleteTexts = {},
): Promise<boolean> {
  if (!window.confirm(texts.confirm ?? i18n.t('delete.confirm', { name }))) return false;
  const id = notifications.show({
    message: texts.pending ?? i18n.t('delete.pending', { name }),
    loading: true,
    autoClose: false,
  });
  const done = (message: string, color: 'teal' | 'red') =>
    notifications.update({ id, message, color, loading: false, autoClose: DELETE_TOAST_MS });
  try {
    await remove();
    done(texts.success ?? i18n.t('delete.success', { name }), 'teal');
    return true;
  } catch (error) {
    const said = serverMessageOf(error);
    done(
      texts.failure
        ? texts.failure(said)
        : i18n.t('delete.failure', { name }) + (said ? ` ${said}` : ''),
      'red',
    );
    return false;
  }
}
