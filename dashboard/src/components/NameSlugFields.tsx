import type { FieldPath, FieldValues, UseFormReturn } from 'react-hook-form';
import { InputField } from '@/components/FormControls';
import { errorAt, slugFillers } from '@/lib/forms';

interface NameSlugFieldsProps<T extends FieldValues & { name: string; slug: string }, C, O> {
  form: UseFormReturn<T, C, O>;
  /** The inputs' ids are `${id}-name` and `${id}-slug`; their test ids too unless `testIds`. */
  id: string;
  testIds?: { name: string; slug: string };
  labels: { name: string; slug: string };
  slugHint?: string;
  /**
   * How the slug is filled from the name (`slugFillers`): `typing`, it follows the name as it
   * is typed until the person edits it; `leaving`, leaving the name fills an empty slug.
   */
  fill: 'typing' | 'leaving';
  /** The server's slug rule; `slugify` unless told. */
  normalise?: (value: string) => string;
  autoFocus?: boolean;
}

/**
 * The name and slug inputs of a form that names a thing and its address (a collection, a field,
 * a page): the name required, the slug filled from it and normalised as the server will when
 * the person leaves it.
 */
export function NameSlugFields<T extends FieldValues & { name: string; slug: string }, C, O>({
  form,
  id,
  testIds,
  labels,
  slugHint,
  fill,
  normalise,
  autoFocus,
}: NameSlugFieldsProps<T, C, O>) {
  const { fillSlug, followName, normaliseSlug } = slugFillers(form, undefined, normalise);
  const { errors } = form.formState;
  return (
    <>
      <InputField
        label={labels.name}
        id={`${id}-name`}
        testId={testIds?.name}
        required
        autoFocus={autoFocus}
        field={form.register(
          'name' as FieldPath<T>,
          fill === 'typing' ? { onChange: followName } : { onBlur: fillSlug },
        )}
        error={errorAt(errors, 'name')}
      />
      <InputField
        label={labels.slug}
        id={`${id}-slug`}
        testId={testIds?.slug}
        description={slugHint}
        field={form.register('slug' as FieldPath<T>, { onBlur: normaliseSlug })}
        error={errorAt(errors, 'slug')}
      />
    </>
  );
}
