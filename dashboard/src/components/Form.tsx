import { useEffect, useRef, type FormHTMLAttributes, type ReactNode } from 'react';
import type { FieldValues, SubmitHandler, UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { focusFirstInvalid, serverErrorPaths } from '@/lib/form-errors';
import { ActionButton } from './ActionButton';

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

interface SubmitButtonProps {
  /** True while the request runs, or while the form can't be sent yet. */
  isDisabled: boolean;
  testId?: string;
  /** The id of the form it submits, when it stands outside it (a dialog's footer). */
  form?: string;
  /** "Save" unless told. */
  children?: ReactNode;
}

/** A form's submit button: the primary one. */
export function SubmitButton({ isDisabled, testId, form, children }: SubmitButtonProps) {
  const { t } = useTranslation();
  return (
    <button
      type="submit"
      form={form}
      className="button button-primary"
      disabled={isDisabled}
      data-testid={testId}
    >
      {children ?? t('common.save')}
    </button>
  );
}

interface FormActionsProps extends SubmitButtonProps {
  /** Leaves without saving: a Cancel button before Save. */
  onCancel?: () => void;
  cancelTestId?: string;
  /** What stands before them: a Back or Cancel link, a Delete button. */
  before?: ReactNode;
}

/** The row that ends a form: what `before` holds, Cancel when `onCancel` is given, and Save. */
export function FormActions({ onCancel, cancelTestId, before, ...submit }: FormActionsProps) {
  const { t } = useTranslation();
  return (
    <div className="form-actions">
      {before}
      {onCancel && (
        <ActionButton onClick={onCancel} testId={cancelTestId}>
          {t('common.cancel')}
        </ActionButton>
      )}
      <SubmitButton {...submit} />
    </div>
  );
}
