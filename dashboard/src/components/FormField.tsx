import { cloneElement, isValidElement, useId, type ReactElement, type ReactNode } from 'react';

/** What a control needs to be tied to its label, description and error. Spread it on the input. */
export interface FieldControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

interface FormFieldProps {
  label: ReactNode;
  /** The control's id (kept stable for tests and e2e selectors); generated when absent. */
  id?: string;
  /** The translated error, shown under the control and announced with it. */
  error?: string | undefined;
  /** Help under the control (the hint). */
  description?: ReactNode;
  /** Marks the label with an asterisk; the schema does the checking. */
  required?: boolean;
  /**
   * Composite editors (a checkbox, a file list, a rich-text editor) are not one labelable input:
   * their name shows as text, and they label themselves.
   */
  labelAs?: 'label' | 'text';
  className?: string;
  testId?: string;
  /** Extra attributes of the wrapper (data-* used by tests and styles). */
  wrapperProps?: Record<`data-${string}`, string>;
  /**
   * The control. A function receives the wiring to spread on it; a single native element
   * (`<input>`, `<select>`, `<textarea>`) is given it directly; anything else (a composite
   * editor) is rendered as it is and labels itself.
   */
  children: ((control: FieldControlProps) => ReactNode) | ReactNode;
}

function wire(children: FormFieldProps['children'], control: FieldControlProps): ReactNode {
  if (typeof children === 'function') return children(control);
  if (isValidElement(children) && typeof children.type === 'string') {
    return cloneElement(children as ReactElement<Partial<FieldControlProps>>, control);
  }
  return children;
}

/**
 * One form field: label, control, description and error, wired for assistive technology. The
 * error sits AT the field (not in a banner on top of the form), the control gets `aria-invalid`
 * and `aria-describedby` pointing at the error and description, and the wrapper carries
 * `data-invalid` so a form can scroll to its first invalid field (see `Form`).
 */
export function FormField({
  label,
  id,
  error,
  description,
  required = false,
  labelAs = 'label',
  className,
  testId,
  wrapperProps,
  children,
}: FormFieldProps) {
  const generated = useId();
  const controlId = id ?? `field-${generated}`;
  const descriptionId = description ? `${controlId}-description` : undefined;
  const errorId = error ? `${controlId}-error` : undefined;
  const describedBy = [errorId, descriptionId].filter(Boolean).join(' ') || undefined;
  const labelText = (
    <>
      {label}
      {required && ' *'}
    </>
  );
  return (
    <div
      className={['field', error ? 'field-invalid' : '', className ?? ''].filter(Boolean).join(' ')}
      data-invalid={error ? 'true' : undefined}
      data-testid={testId}
      {...wrapperProps}
    >
      {labelAs === 'label' ? (
        // The id names composite editors that label themselves by it (`aria-labelledby`).
        <label htmlFor={controlId} id={`${controlId}-label`}>
          {labelText}
        </label>
      ) : (
        <span className="label" id={`${controlId}-label`}>
          {labelText}
        </span>
      )}
      {wire(children, {
        id: controlId,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': describedBy,
      })}
      {description && (
        <small className="field-hint" id={descriptionId}>
          {description}
        </small>
      )}
      {error && (
        <small className="field-error" id={errorId} role="alert">
          {error}
        </small>
      )}
    </div>
  );
}
