/** The login's schema, in a chunk of its own: zod loads once the person types (LoginPage). */
export { loginSchema } from '@sesame/shared';
