/**
 * Helpers shared by every react-hook-form form. Why react-hook-form + zod: inputs stay
 * uncontrolled (no re-render per keystroke on the long record and settings forms), composite
 * editors bind through `Controller`, and the zod schemas in `@/lib/validation` are the same
 * rules the server applies (both sides are tested against shared/testdata/validation.json).
 */
import type { TFunction } from 'i18next';
import { useState } from 'react';
import type { FieldError, FieldErrors, FieldPath, FieldValues, UseFormReturn } from 'react-hook-form';
import { ApiError, errorMessage } from '@/lib/api-client';
import { readIssueMessage } from '@/lib/validation';

/**
 * Scrolls to the first invalid field of `root` (in document order) and focuses its control:
 * the element marked `aria-invalid`, or else the first focusable element of the field.
 */
export function focusFirstInvalid(root: ParentNode): HTMLElement | null {
  const field = root.querySelector<HTMLElement>('[data-invalid="true"]');
  if (!field) return null;
  const control =
    field.querySelector<HTMLElement>('[aria-invalid="true"]') ??
    field.querySelector<HTMLElement>('input, select, textarea, button, [contenteditable="true"], [tabindex]');
  field.scrollIntoView?.({ block: 'center' });
  (control ?? field).focus({ preventScroll: true });
  return control ?? field;
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

/** `errors.a.b` for the dotted path of a nested field. */
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
