import { parseOrder } from '@/features/block-admin/lib/block-form';

interface Props {
  value: number;
  label: string;
  testId: string;
  disabled?: boolean;
  onCommit: (order: number) => void;
}

/** A position field that sends the new order when it loses focus (or on Enter), if it changed. */
export function OrderInput({ value, label, testId, disabled, onCommit }: Props) {
  const commit = (input: HTMLInputElement) => {
    const order = parseOrder(input.value);
    if (order === undefined || order === null) {
      input.value = String(value);
      return;
    }
    if (order !== value) onCommit(order);
  };
  return (
    <input
      // Re-mounted when the server's order changes, so the field shows what is stored.
      key={value}
      type="number"
      min={0}
      className="narrow-input"
      aria-label={label}
      defaultValue={value}
      disabled={disabled}
      data-testid={testId}
      onBlur={(event) => commit(event.currentTarget)}
      onKeyDown={(event) => {
        if (event.key === 'Enter') {
          event.preventDefault();
          commit(event.currentTarget);
        }
      }}
    />
  );
}
