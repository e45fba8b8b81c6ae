/**
 * A form's values and errors, for the one form layer (lib/use-schema-form.ts). It replaced
 * `@mantine/form` (issue 19: 6 KB of the public forms' 150 KB budget), whose rules,
 * lists, touched and dirty tracking Sésame never used: the shared zod schema checks the
 * values, and this keeps them.
 *
 * Controlled: each change renders the form again. `getValues()` reads the latest values
 * even before that render, so a submit in the same event as a change sees it.
 */
import { useRef, useState, type ChangeEvent } from 'react';

/**
 * What an input takes: Mantine's inputs and native ones alike. `value` is each field's own
 * type (text, a File, a list), which no one input type describes: hence `any`, as the
 * library this replaced had it.
 */
export interface InputProps {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
  value?: any;
  checked?: boolean;
  onChange: (input: unknown) => void;
  error?: string;
  /** The attribute the focus looks for (`getInputNode`). */
  'data-path': string;
}

/** The fields whose value is text. */
type TextField<Values> = {
  [Field in keyof Values & string]: Values[Field] extends string ? Field : never;
}[keyof Values & string];

export interface FormState<Values extends object> {
  values: Values;
  getValues: () => Values;
  setValues: (values: Partial<Values>) => void;
  setFieldValue: <Field extends keyof Values & string>(field: Field, value: Values[Field]) => void;
  errors: Readonly<Record<string, string | undefined>>;
  setErrors: (errors: Record<string, string>) => void;
  setFieldError: (field: string, message: string) => void;
  clearFieldError: (field: string) => void;
  clearErrors: () => void;
  /** `type: 'checkbox'` gives `checked` rather than `value`. */
  getInputProps: (field: keyof Values & string, options?: { type?: 'checkbox' }) => InputProps;
  /** A choice among options (a Select) kept as text: '' is no choice, which it shows as null. */
  getSelectProps: (field: TextField<Values>) => InputProps;
  /** The input that shows `field`, to move the focus to it. */
  getInputNode: (field: string) => HTMLElement | null;
  submitting: boolean;
  setSubmitting: (submitting: boolean) => void;
  /** Back to the initial values, without errors. */
  reset: () => void;
}

/** A change event's value (a checkbox's `checked`), or the value a Mantine input gives. */
function changedValue(input: unknown): unknown {
  if (input && typeof input === 'object' && 'nativeEvent' in input) {
    const target = (input as ChangeEvent<HTMLInputElement>).currentTarget;
    return target.type === 'checkbox' ? target.checked : target.value;
  }
  return input;
}

export function useFormState<Values extends object>(
  initialValues: Values,
  /** After each change of a value: a changed value clears its field's error too. */
  onValuesChange?: () => void,
): FormState<Values> {
  const [values, setValuesState] = useState(initialValues);
  const latest = useRef(values);
  const [errors, setErrorsState] = useState<Record<string, string | undefined>>({});
  const [submitting, setSubmitting] = useState(false);
  const initial = useRef(initialValues);

  const store = (next: Values) => {
    latest.current = next;
    setValuesState(next);
  };
  const setValues = (partial: Partial<Values>) => {
    store({ ...latest.current, ...partial });
    const changed = Object.keys(partial);
    setErrorsState((current) =>
      Object.fromEntries(Object.entries(current).filter(([field]) => !changed.includes(field))),
    );
    onValuesChange?.();
  };
  const setFieldValue = <Field extends keyof Values & string>(
    field: Field,
    value: Values[Field],
  ) => {
    const partial: Partial<Values> = {};
    partial[field] = value;
    setValues(partial);
  };
  const clearFieldError = (field: string) =>
    setErrorsState((current) => ({ ...current, [field]: undefined }));
  const getInputProps: FormState<Values>['getInputProps'] = (field, options) => ({
    [options?.type === 'checkbox' ? 'checked' : 'value']: values[field],
    onChange: (input: unknown) => setFieldValue(field, changedValue(input) as Values[typeof field]),
    error: errors[field],
    'data-path': field,
  });

  return {
    values,
    getValues: () => latest.current,
    setValues,
    setFieldValue,
    errors,
    setErrors: (next) => setErrorsState({ ...next }),
    setFieldError: (field, message) =>
      setErrorsState((current) => ({ ...current, [field]: message })),
    clearFieldError,
    clearErrors: () => setErrorsState({}),
    getInputProps,
    getSelectProps: (field) => ({
      ...getInputProps(field),
      value: values[field] || null,
      onChange: (value: unknown) =>
        setFieldValue(field, ((value as string | null) ?? '') as Values[typeof field]),
    }),
    getInputNode: (field) =>
      document.querySelector<HTMLElement>(`[data-path="${CSS.escape(field)}"]`),
    submitting,
    setSubmitting,
    reset: () => {
      store(initial.current);
      setErrorsState({});
    },
  };
}
