import { useEffect, useRef, type FormHTMLAttributes, type ReactNode } from 'react';
import type { FieldValues, SubmitHandler, UseFormReturn } from 'react-hook-form';
import { focusFirstInvalid, serverErrorPaths } from '@/lib/forms';

interface FormProps<T extends FieldValues, C, O> extends Omit<
  FormHTMLAttributes<HTMLFormElement>,
  'onSubmit'
> {
  /** The form; `O` is what its schema makes of the values (trimmed text, numbers). */
  form: UseFormReturn<T, C, O>;
  onValid: SubmitHandler<O>;
  children: ReactNode;
  testId?: string;
}

/**
 * A react-hook-form `<form>`: validates with the form's resolver (a zod schema), and when a
 * submit finds errors scrolls to and focuses the first invalid field in the page's order (the
 * first `FormField` marked `data-invalid`), so an error far down a long form is never missed.
 * Browser validation is off (`noValidate`): the schema's translated messages show instead.
 */
export function Form<T extends FieldValues, C, O>({
  form,
  onValid,
  children,
  testId,
  ...rest
}: FormProps<T, C, O>) {
  const ref = useRef<HTMLFormElement>(null);
  const { submitCount, isSubmitSuccessful } = form.formState;

  // Runs after the render that shows the errors of a failed submit, so they are in the DOM.
  useEffect(() => {
    if (submitCount > 0 && !isSubmitSuccessful && ref.current) focusFirstInvalid(ref.current);
  }, [submitCount, isSubmitSuccessful]);

  // A refusal of the server shown at a field (`setServerError`) takes the focus the same way.
  const serverErrors = serverErrorPaths(form.formState.errors);
  useEffect(() => {
    if (serverErrors && ref.current) focusFirstInvalid(ref.current);
  }, [serverErrors]);

  return (
    <form
      ref={ref}
      noValidate
      onSubmit={(event) => void form.handleSubmit(onValid)(event)}
      data-testid={testId}
      {...rest}
    >
      {children}
    </form>
  );
}
