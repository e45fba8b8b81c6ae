import { notifications } from '@mantine/notifications';
import { DELETE_TOAST_MS } from '@sesame/shared';
import i18n from '../lib/i18n';

/**
 * The spec's delete: a browser confirmation, then 'Deleting {name}...', then
 * success or failure toasts that close after DELETE_TOAST_MS. Returns true when deleted.
 * `successMessage` replaces the spec's user wording for other records (a company).
 */
export async function confirmDelete(
  name: string,
  remove: () => Promise<unknown>,
  successMessage?: string,
): Promise<boolean> {
  if (!window.confirm(i18n.t('delete.confirm', { name }))) return false;
  const id = notifications.show({
    message: i18n.t('delete.pending', { name }),
    loading: true,
    autoClose: false,
  });
  try {
    await remove();
    notifications.update({
      id,
      message: successMessage ?? i18n.t('delete.success', { name }),
      color: 'teal',
      loading: false,
      autoClose: DELETE_TOAST_MS,
    });
    return true;
  } catch (error) {
    const serverMessage =
      error instanceof Error && error.message && !error.message.startsWith('HTTP')
        ? ` ${error.message}`
        : '';
    notifications.update({
      id,
      message: i18n.t('delete.failure', { name }) + serverMessage,
      color: 'red',
      loading: false,
      autoClose: DELETE_TOAST_MS,
    });
    return false;
  }
}
