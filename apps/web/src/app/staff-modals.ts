/**
 * The confirmation modals, in a chunk of their own: the provider (app/routes loads it for
 * staff) and the `modals` events a screen that is not staff-only opens them with (PersonRights).
 */
export { ModalsProvider as default, modals } from '@mantine/modals';
