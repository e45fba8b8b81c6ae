/**
 * The visitor form's schema, in a chunk of its own: zod loads once the visitor types (VisitorForm).
 * Issue 31: built for a visitor type's required fields.
 */
export { visitorFormSchema, visitorFormSchemaFor } from '@sesame/shared';
