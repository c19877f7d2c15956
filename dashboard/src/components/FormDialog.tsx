import type { ReactNode } from 'react';
import type { FieldValues } from 'react-hook-form';
import { Alert } from '@/components/Alert';
import { Form, FormActions } from '@/components/Form';
import { Dialog, type DialogProps } from '@/components/ui/Dialog';
import type { FormSubmission } from '@/lib/forms';

interface FormDialogProps<T extends FieldValues, C, O> {
  title: string;
  /**
   * The dialog's test id; the form's id is `${testId}-form`, and its Save, Cancel and error
   * are `${testId}-save`, `-cancel` and `-error` unless named otherwise.
   */
  testId: string;
  /**
   * `useZodForm().saveWith(mutation, …)`: the form, its failed save that names none of its
   * fields, its save, whether that runs (Save is disabled meanwhile), and the dialog's close.
   */
  form: FormSubmission<T, C, O>;
  saveTestId?: string;
  /** The submit button's text; "Save" unless told. */
  saveLabel?: ReactNode;
  failureTestId?: string;
  size?: DialogProps['size'];
  children: ReactNode;
}

/**
 * A dialog holding one react-hook-form form, Cancel and Save in its footer: the admin's block,
 * category, business-block and template forms and the collection field form. Errors show at
 * their fields (the `Form` focuses the first); a server error that names no field shows on top.
 */
export function FormDialog<T extends FieldValues, C, O>({
  title,
  testId,
  form: { form, failure, onValid, saving, onClose },
  saveTestId = `${testId}-save`,
  saveLabel,
  failureTestId = `${testId}-error`,
  size,
  children,
}: FormDialogProps<T, C, O>) {
  const formId = `${testId}-form`;
  return (
    <Dialog
      title={title}
      onClose={onClose}
      testId={testId}
      size={size}
      isDismissable={false}
      footer={
        <FormActions
          onCancel={onClose}
          cancelTestId={`${testId}-cancel`}
          form={formId}
          isDisabled={saving}
          testId={saveTestId}
        >
          {saveLabel}
        </FormActions>
      }
    >
      <Form id={formId} form={form} onValid={onValid} className="form">
        {failure.message && <Alert testId={failureTestId}>{failure.message}</Alert>}
        {children}
      </Form>
    </Dialog>
  );
}
