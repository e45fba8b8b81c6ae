/**
 * The one form layer of the web app: `lib/form-state.ts` holds the values and the
 * errors, a shared zod schema (the server's own) checks them on submit. A refused
 * submit shows each field's first message in the screen's language (the schema's
 * issue keys, `lib/schema-errors.ts`), puts the first one in a banner and moves
 * the focus to that field; a valid one hands the parsed data to `onSubmit`.
 *
 * Every input takes `form.getInputProps(field)`, which also sets `data-path`,
 * the attribute the focus looks for.
 *
 * One submit at a time, on every form (issue 17: a double click created two events):
 * while `onSubmit` runs, a second submit is ignored, decided synchronously (a ref, not
 * the next render), and `busy` is true for the submit button (`loading` disables it).
 */
import { useRef, useState, type FormEvent } from 'react';
import { useFormState, type FormState } from './form-state';
import { useTranslation } from './i18n';
import {
  fieldErrors,
  issueText,
  mergeFieldErrors,
  type FormIssue,
  type MessageKeys,
} from './schema-errors';
import { interfaceCatalogue } from './language';

// The shared schemas speak the product's words on this side too, never zod's defaults:
// they install them as they load (packages/shared schemas/common.ts), so zod comes with
// a form's schema, not with this module (the login loads it as the person types).

/** What the hook needs of a zod schema. */
export interface SafeParser<Output> {
  safeParse(
    input: unknown,
  ): { success: true; data: Output } | { success: false; error: { issues: readonly FormIssue[] } };
}

/**
 * The schema, or how to load it: a public form whose page must stay light (the login)
 * loads its schema, and zod with it, when the person starts typing, or at the latest on
 * submit (which then waits for it, the button showing it is busy).
 */
export type SchemaSource<Output> = SafeParser<Output> | (() => Promise<SafeParser<Output>>);

export interface SchemaFormOptions<Values extends object, Output> {
  initialValues: Values;
  /** The locale namespace of the screen, and where its messages and labels live in it. */
  ns: string;
  keys?: MessageKeys;
  /** The schema's input built from the values (selects joined, the company chosen…). */
  toInput?: (values: Values) => unknown;
  /** The screen's own checks the schema cannot make (a file's type, a past day), translated. */
  check?: (values: Values) => Readonly<Record<string, string | undefined>>;
  /** An issue's path → the field that shows it. */
  fieldOf?: Readonly<Record<string, string>>;
  /** Sends the parsed data; may answer the server's field errors, which the form then shows. */
  onSubmit: (
    data: Output,
    values: Values,
  ) =>
    void | Record<string, string> | undefined | Promise<void | Record<string, string> | undefined>;
}

export interface SchemaForm<Values extends object> {
  form: FormState<Values>;
  /** The `<form onSubmit>` handler. */
  submit: (event?: FormEvent) => void;
  /** The first message of the last refused submit (the banner); cleared when a value changes. */
  summary: string | null;
  /** Shows errors and a banner of the screen's own (the server's answer). */
  showErrors: (errors: Record<string, string>, summary?: string | null) => void;
  /** Replaces the banner (a server answer without field errors). */
  setSummary: (summary: string | null) => void;
  /** Checks one field now (a file as soon as it is picked), with the same schema. */
  validateField: (field: string, values?: Values) => void;
  /** A submit is running: the submit button shows it and is disabled. */
  busy: boolean;
}

export function useSchemaForm<Values extends object, Output>(
  source: SchemaSource<Output>,
  options: SchemaFormOptions<Values, Output>,
): SchemaForm<Values> {
  const { t } = useTranslation(options.ns);
  const [summary, setSummary] = useState<string | null>(null);
  /** Set and read in the same event: a second click before React renders again is seen. */
  const running = useRef(false);
  /** The loaded schema, when `source` loads it. */
  const loaded = useRef<SafeParser<Output> | undefined>(undefined);
  const loading = useRef<Promise<SafeParser<Output>> | undefined>(undefined);
  const schemaNow = () => (typeof source === 'function' ? loaded.current : source);
  const loadSchema = () => {
    if (typeof source !== 'function') return Promise.resolve(source);
    loading.current ??= source().then(
      (schema) => (loaded.current = schema),
      (error: unknown) => {
        loading.current = undefined; // another try on the next submit
        throw error;
      },
    );
    return loading.current;
  };
  const form = useFormState<Values>(options.initialValues, () => {
    setSummary(null);
    if (!schemaNow()) loadSchema().catch(() => undefined);
  });

  const showErrors = (errors: Record<string, string>, banner?: string | null) => {
    form.setErrors(errors);
    const first = Object.keys(errors)[0];
    setSummary(banner === undefined ? (first ? (errors[first] ?? null) : null) : banner);
    if (first) form.getInputNode(first)?.focus();
  };

  const check = (schema: SafeParser<Output>, values: Values) => {
    const parsed = schema.safeParse(options.toInput ? options.toInput(values) : values);
    const fromSchema = parsed.success
      ? { errors: {}, first: undefined }
      : fieldErrors(
          parsed.error.issues,
          issueText(t, options.keys, interfaceCatalogue()),
          options.fieldOf,
        );
    return { parsed, ...mergeFieldErrors(fromSchema, options.check?.(values) ?? {}) };
  };

  const validateField = (field: string, values: Values = form.getValues()) => {
    const schema = schemaNow();
    if (!schema) {
      loadSchema().then(
        () => validateField(field, values),
        () => undefined,
      );
      return;
    }
    const message = check(schema, values).errors[field];
    if (message) form.setFieldError(field, message);
    else form.clearFieldError(field);
  };

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (running.current) return;
    const schema = schemaNow();
    if (!schema) {
      // The schema is still on its way: the submit waits for it, busy meanwhile.
      running.current = true;
      form.setSubmitting(true);
      loadSchema()
        .finally(() => {
          running.current = false;
          form.setSubmitting(false);
        })
        // Its code could not be loaded (offline, an update): the banner says to reload.
        .then(
          () => submit(),
          () => setSummary(t('common:routeError.text')),
        );
      return;
    }
    const values = form.getValues();
    const { parsed, errors, first } = check(schema, values);
    if (first || !parsed.success) {
      form.setErrors(errors);
      setSummary(first ? (errors[first] ?? null) : null);
      if (first) form.getInputNode(first)?.focus();
      return;
    }
    form.clearErrors();
    setSummary(null);
    running.current = true;
    form.setSubmitting(true);
    // Called inside the promise: a throw from onSubmit also ends the run.
    void Promise.resolve()
      .then(() => options.onSubmit(parsed.data, values))
      .then((serverErrors) => {
        if (serverErrors && Object.keys(serverErrors).length > 0) showErrors(serverErrors, null);
      })
      .finally(() => {
        running.current = false;
        form.setSubmitting(false);
      });
  };

  return { form, submit, summary, showErrors, setSummary, validateField, busy: form.submitting };
}
