/**
 * Helpers shared by every react-hook-form form. Why react-hook-form + zod: inputs stay
 * uncontrolled (no re-render per keystroke on the long record and settings forms), composite
 * editors bind through `Controller`, and the zod schemas in `@/lib/validation` are the same
 * rules the server applies (both sides are tested against shared/testdata/validation.json).
 */
import { zodResolver } from '@hookform/resolvers/zod';
import {
  useForm,
  type DefaultValues,
  type FieldPath,
  type FieldValues,
  type Mode,
  type PathValue,
  type RegisterOptions,
  type UseFormReturn,
} from 'react-hook-form';
import type { z } from 'zod';
import { slugify } from '@/lib/validation';
import { errorAt, useFormFailure } from '@/lib/form-errors';

export {
  errorAt,
  errorText,
  focusFirstInvalid,
  serverErrorPaths,
  setServerError,
  useFormFailure,
} from '@/lib/form-errors';

/** The part of a TanStack mutation that `submitTo` runs. */
interface Mutation<V, D, E> {
  mutate: (variables: V, options: { onSuccess: (data: D) => void; onError: (error: E) => void }) => void;
}

/** What a form's save does besides reporting its failure to the form. */
export interface SubmitHandlers<D, E = Error> {
  onSuccess?: (data: D) => void;
  /** Runs beside the report (a toast). */
  onError?: (error: E) => void;
}

/**
 * What a form dialog needs of its form (`FormDialog`'s `form`, made by `useZodForm`'s
 * `saveWith`): the form, its failed save that names none of its fields, what a valid submit
 * does, whether the save runs, and how the dialog closes.
 */
export interface FormSubmission<T extends FieldValues, C, O> {
  form: UseFormReturn<T, C, O>;
  failure: { message: string | undefined };
  onValid: (values: O) => void | Promise<void>;
  saving: boolean;
  onClose: () => void;
}

interface ZodFormOptions<I extends FieldValues> {
  defaultValues: DefaultValues<I>;
  /** The fields a server error may name (see `setServerError`). */
  serverFields: readonly FieldPath<I>[];
  /** Server field names that are called otherwise in the form. */
  serverFieldMap?: Partial<Record<string, FieldPath<I>>>;
  mode?: Mode;
}

/**
 * A react-hook-form form checked by a zod schema (its values `I` in, the request body `O` out),
 * with what every form of the dashboard wants beside it: `failure` for the server's refusals
 * (`useFormFailure`), `bind(name)`, the `field` and `error` props of the controls in
 * `@/components/FormControls`, and `submitTo(mutation, variables, handlers)`, a save that forgets
 * the last failure and reports a new one (at its field, else in the form's alert); `saveWith`
 * bundles such a save with the form for a `FormDialog`.
 */
export function useZodForm<I extends FieldValues, O>(
  schema: z.ZodType<O, I>,
  { defaultValues, serverFields, serverFieldMap, mode }: ZodFormOptions<I>,
) {
  const form = useForm<I, unknown, O>({ resolver: zodResolver(schema), defaultValues, mode });
  const failure = useFormFailure(form, serverFields, serverFieldMap);
  const { errors } = form.formState;
  const bind = <N extends FieldPath<I>>(name: N, options?: RegisterOptions<I, N>) => ({
    field: form.register(name, options),
    error: errorAt(errors, name),
  });
  const submitTo = <V, D, E>(
    mutation: Mutation<V, D, E>,
    variables: V,
    { onSuccess = () => undefined, onError }: SubmitHandlers<D, E> = {},
  ) => {
    failure.clear();
    mutation.mutate(variables, {
      onSuccess,
      onError: (error) => {
        failure.report(error);
        onError?.(error);
      },
    });
  };
  /**
   * The form saved through `mutation`, for a `FormDialog` that `onClose` closes (its Cancel): a
   * valid submit makes the mutation's variables of the values (`toVariables`) and sends them with
   * `submitTo`; it is `saving` while the mutation runs, and closes the dialog once it succeeds
   * (after `onSuccess`).
   */
  const saveWith = <V, D, E>(
    mutation: Mutation<V, D, E> & { isPending: boolean },
    toVariables: (values: O) => V,
    onClose: () => void,
    { onSuccess, onError }: SubmitHandlers<D, E> = {},
  ): FormSubmission<I, unknown, O> => ({
    form,
    failure,
    saving: mutation.isPending,
    onClose,
    onValid: (values) =>
      submitTo(mutation, toVariables(values), {
        onSuccess: (data) => {
          onSuccess?.(data);
          onClose();
        },
        onError,
      }),
  });
  return { form, failure, bind, submitTo, saveWith };
}

/**
 * The handlers of a form's `name` and `slug` inputs. Leaving the name fills an empty slug from it
 * (`fillSlug`, when `fillWhen` allows), or, for a slug that follows the name as it is typed,
 * `followName` on the name's change fills it until the person edits the slug (and again once they
 * empty it). Leaving the slug normalises it as the server will (`normaliseSlug`; an empty slug
 * stays empty). `normalise` is the server's rule: `slugify`, or `normalizePageSlug` for a page.
 */
export function slugFillers<T extends FieldValues & { name: string; slug: string }, C, O>(
  form: UseFormReturn<T, C, O>,
  fillWhen: () => boolean = () => true,
  normalise: (value: string) => string = slugify,
) {
  const get = (key: 'name' | 'slug') => String(form.getValues(key as FieldPath<T>));
  const setSlug = (value: string, options?: { shouldValidate: boolean }) =>
    form.setValue('slug' as FieldPath<T>, value as PathValue<T, FieldPath<T>>, options);
  const fromName = () => (get('name').trim() === '' ? '' : normalise(get('name')));
  return {
    fillSlug: () => {
      if (fillWhen() && get('slug').trim() === '') setSlug(fromName());
    },
    followName: () => {
      if (fillWhen() && !form.getFieldState('slug' as FieldPath<T>).isDirty) {
        // Once a submit was refused, the slug's error follows its new value too.
        setSlug(fromName(), { shouldValidate: form.formState.isSubmitted });
      }
    },
    normaliseSlug: () => setSlug(get('slug').trim() === '' ? '' : normalise(get('slug'))),
  };
}
