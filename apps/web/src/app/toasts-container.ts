/** The toasts' container, in a chunk of its own (app/providers loads it with the first toast). */
export { Notifications as default } from '@mantine/notifications';
