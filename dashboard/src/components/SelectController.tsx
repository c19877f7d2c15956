import type { ReactElement } from 'react';
import { Controller, type Control, type FieldPath, type FieldValues } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { RadioGroup, type RadioGroupProps } from '@/components/ui/RadioGroup';
import { Select, type SelectProps } from '@/components/ui/Select';
import { errorText } from '@/lib/forms';

/** What the `Controller` gives a choice: its value, change, blur and error. */
type Bound = 'value' | 'onChange' | 'onBlur' | 'error';

interface ControllerProps<T extends FieldValues, C, O> {
  control: Control<T, C, O>;
  name: FieldPath<T>;
  /** Fields checked again when this one changes (a choice another field's rule depends on). */
  deps?: FieldPath<T>[];
}

/** What a bound choice shows: its value, change, blur, focus target and translated error. */
interface BoundChoice {
  value: string | null;
  onChange: (value: string) => void;
  onBlur: () => void;
  ref: (element: HTMLElement | null) => void;
  error: string | undefined;
}

/** The `Controller` of a choice: hands the field's state to `children`. */
function BindChoice<T extends FieldValues, C, O>({
  control,
  name,
  deps,
  children,
}: ControllerProps<T, C, O> & { children: (bound: BoundChoice) => ReactElement }) {
  const { t } = useTranslation();
  return (
    <Controller
      control={control}
      name={name}
      rules={deps && { deps }}
      render={({ field, fieldState }) =>
        children({
          value: field.value,
          onChange: field.onChange,
          onBlur: field.onBlur,
          ref: field.ref,
          error: errorText(t, fieldState.error),
        })
      }
    />
  );
}

/**
 * A `Select` bound to a react-hook-form field through a `Controller`, its value, its error
 * (translated) and the focus a refused submit gives the field;
 * `onChosen` runs after a choice is set (to fill another field from it).
 */
export function SelectController<T extends FieldValues, C, O>({
  control,
  name,
  deps,
  onChosen,
  ...select
}: ControllerProps<T, C, O> & Omit<SelectProps, Bound | 'buttonRef'> & { onChosen?: (id: string) => void }) {
  return (
    <BindChoice control={control} name={name} deps={deps}>
      {({ ref, onChange, ...bound }) => (
        <Select
          {...select}
          {...bound}
          onChange={(id) => {
            onChange(id);
            onChosen?.(id);
          }}
          buttonRef={ref}
        />
      )}
    </BindChoice>
  );
}

/**
 * A `RadioGroup` bound to a react-hook-form field, as `SelectController` binds a `Select`: the
 * chosen radio takes the focus a refused submit gives the field.
 */
export function RadioController<T extends FieldValues, C, O>({
  control,
  name,
  deps,
  ...radios
}: ControllerProps<T, C, O> & Omit<RadioGroupProps, Bound | 'inputRef'>) {
  return (
    <BindChoice control={control} name={name} deps={deps}>
      {({ ref, ...bound }) => <RadioGroup {...radios} {...bound} inputRef={ref} />}
    </BindChoice>
  );
}
