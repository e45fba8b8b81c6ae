/** The details form's schema, in a chunk of its own: zod loads once the visitor types. */
export { invitationDetailsSchema } from '@sesame/shared';
