/**
 * The error side of the react-hook-form forms: focusing the first invalid field, the text of a
 * field's error, a server error set on its field. Free of zod (schema messages are read by
 * `readIssueMessage`), so a screen whose schema loads lazily (the sign-in page's forms, see
 * `lazyResolver`) needs neither zod nor the schemas for these.
 */
import type { TFunction } from 'i18next';
import { useState } from 'react';
import type { FieldError, FieldErrors, FieldPath, FieldValues, UseFormReturn } from 'react-hook-form';
import { ApiError, errorMessage } from '@/lib/api-client';
import { readIssueMessage } from '@/lib/issue-message';

const FOCUSABLE = 'input, select, textarea, button, [contenteditable="true"], [tabindex]';

/** Not hidden from assistive technology (a select's hidden native twin). */
function exposed(element: Element): boolean {
  return !element.closest('[aria-hidden="true"]');
}

/** Reached by Tab: exposed, enabled, not taken out of the tab order (a radio not chosen). */
function tabbable(element: Element): boolean {
  return (
    exposed(element) && element.getAttribute('tabindex') !== '-1' && !(element as HTMLInputElement).disabled
  );
}

/**
 * Scrolls to the first invalid field of `root` (in document order) and focuses its control:
 * the element marked `aria-invalid` when it takes the focus, or else the first control of the
 * field that Tab reaches (the chosen radio of a radio group marked invalid as a whole).
 */
export function focusFirstInvalid(root: ParentNode): HTMLElement | null {
  const field = root.querySelector<HTMLElement>('[data-invalid="true"]');
  if (!field) return null;
  const marked = [...field.querySelectorAll<HTMLElement>('[aria-invalid="true"]')].find(
    (element) => element.matches(FOCUSABLE) && exposed(element),
  );
  const controls = [...field.querySelectorAll<HTMLElement>(FOCUSABLE)];
  const control = marked ?? controls.find(tabbable) ?? controls[0];
  field.scrollIntoView?.({ block: 'center' });
  (control ?? field).focus({ preventScroll: true });
  return control ?? field;
}

/**
 * The paths of the errors the server set (`type: 'server'`), joined: a form focuses the first
 * invalid field when this changes, since a control bound through `Controller` takes no focus
 * from `setError`.
 */
export function serverErrorPaths(errors: unknown, prefix = ''): string {
  if (typeof errors !== 'object' || errors === null) return '';
  const error = errors as Partial<FieldError>;
  if (error.type === 'server' && typeof error.message === 'string') return prefix;
  return Object.entries(errors)
    .filter(([key]) => key !== 'ref')
    .map(([key, value]) => serverErrorPaths(value, prefix ? `${prefix}.${key}` : key))
    .filter(Boolean)
    .join(' ');
}

/**
 * The text of a field's error: schema messages are i18n keys (`validation.*`, with values
 * through `issueMessage`), errors the
 * server sent (`type: 'server'`) are already text and are shown as they are.
 */
export function errorText(t: TFunction, error: FieldError | undefined): string | undefined {
  if (!error?.message) return undefined;
  if (error.type === 'server') return error.message;
  const { key, values } = readIssueMessage(error.message);
  return t(key, values);
}

/** The error at the dotted path of a nested field (`a.b` is `errors[a][b]`). */
export function errorAt<T extends FieldValues>(errors: FieldErrors<T>, path: string): FieldError | undefined {
  let node: unknown = errors;
  for (const part of path.split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'object' && node !== null && 'message' in node ? (node as FieldError) : undefined;
}

/**
 * A server error that names one of the form's fields (`ApiError.field`) is set on that field,
 * which then shows it and takes the focus. Returns whether it did (else the caller shows the
 * error elsewhere, a toast or an alert). `fieldMap` renames server fields to form paths.
 */
export function setServerError<T extends FieldValues, C, O>(
  form: UseFormReturn<T, C, O>,
  error: unknown,
  fields: readonly FieldPath<T>[],
  fieldMap: Partial<Record<string, FieldPath<T>>> = {},
): boolean {
  if (!(error instanceof ApiError) || !error.field) return false;
  const target = fieldMap[error.field] ?? fields.find((field) => field === error.field);
  if (!target) return false;
  form.setError(target, { type: 'server', message: errorMessage(error) }, { shouldFocus: true });
  return true;
}

/**
 * A form's failed saves: `report` (a mutation's `onError`) sets an error that names one of
 * `fields` at that field; any other error is kept as `message`, for the form's alert, until the
 * next report or `clear`.
 */
export function useFormFailure<T extends FieldValues, C, O>(
  form: UseFormReturn<T, C, O>,
  fields: readonly FieldPath<T>[],
  fieldMap: Partial<Record<string, FieldPath<T>>> = {},
) {
  const [failure, setFailure] = useState<{ error: unknown } | null>(null);
  return {
    report: (error: unknown) => setFailure(setServerError(form, error, fields, fieldMap) ? null : { error }),
    clear: () => setFailure(null),
    message: failure ? errorMessage(failure.error) : undefined,
  };
}
