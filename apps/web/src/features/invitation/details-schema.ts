/**
 * The details form's schema, in a chunk of its own: zod loads once the visitor types.
 * Issue 31: built for the visit's type's required fields.
 */
export { invitationDetailsSchema, invitationDetailsSchemaFor } from '@sesame/shared';
