/** The visitor form's schema, in a chunk of its own: zod loads once the visitor types (VisitorForm). */
export { visitorFormSchema } from '@sesame/shared';
