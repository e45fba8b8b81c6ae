/** The login's first step's schema (issue 33), in a chunk of its own like login-schema.ts. */
export { ssoBeginSchema } from '@sesame/shared';
