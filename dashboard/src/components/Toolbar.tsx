import type { ReactNode } from 'react';

interface SearchInputProps {
  /** Its name and placeholder: what it searches ("Search projects"). */
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** The list toolbar's search box unless told (the editor's block search is its own). */
  className?: string;
  testId: string;
}

/** A list's search box: a search input named by its placeholder. */
export function SearchInput({
  label,
  value,
  onChange,
  className = 'toolbar-search',
  testId,
}: SearchInputProps) {
  return (
    <input
      type="search"
      className={className}
      placeholder={label}
      aria-label={label}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      data-testid={testId}
    />
  );
}

interface ToolbarSelectProps<T extends string | number> {
  label: string;
  value: T;
  /** The choices, in their order; `value` is one of them. */
  options: readonly T[];
  optionLabel: (option: T) => ReactNode;
  onChange: (option: T) => void;
  testId: string;
}

/**
 * A list toolbar's labelled choice (the order, the page size). It hands back one of `options`,
 * typed, so the caller needs no check of the `<select>`'s text.
 */
export function ToolbarSelect<T extends string | number>({
  label,
  value,
  options,
  optionLabel,
  onChange,
  testId,
}: ToolbarSelectProps<T>) {
  return (
    <label className="toolbar-item">
      <span>{label}</span>
      <select
        value={value}
        onChange={(event) => {
          const chosen = options.find((option) => String(option) === event.target.value);
          if (chosen !== undefined) onChange(chosen);
        }}
        data-testid={testId}
      >
        {options.map((option) => (
          <option key={option} value={option}>
            {optionLabel(option)}
          </option>
        ))}
      </select>
    </label>
  );
}
