/**
 * The public pages' namespaces in English, in one chunk of their own (lib/i18n): loaded
 * before the first render for someone who reads English, or when they switch to it.
 * The list is lib/i18n's PUBLIC_NAMESPACES (keep the two the same). The shared catalogue's English (the form
 * layer's messages) comes in the same chunk.
 */
export { ENGLISH_MESSAGES } from '@sesame/shared';

export default import.meta.glob<Record<string, unknown>>(
  '../locales/en/{common,auth,home,visitors,events,checkins,hostLoop,privacy,invitation,signing}.json',
  { eager: true, import: 'default' },
);
