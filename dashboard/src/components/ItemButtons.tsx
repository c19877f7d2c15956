import { useTranslation } from 'react-i18next';
import { ActionButton } from './ActionButton';

/** `items` with the one at `from` moved to `to`; as it was when `to` is outside the list. */
function move<T>(items: T[], from: number, to: number): T[] {
  if (to < 0 || to >= items.length) return items;
  const next = [...items];
  const [item] = next.splice(from, 1);
  if (item !== undefined) next.splice(to, 0, item);
  return next;
}

interface RemoveButtonProps {
  onRemove: () => void;
  /** Shows × (still named "Remove") instead of the word, where room is short. */
  compact?: boolean;
  testId?: string;
}

/** Takes a value or an item away: a small red-text button. */
export function RemoveButton({ onRemove, compact = false, testId }: RemoveButtonProps) {
  const { t } = useTranslation();
  return (
    <ActionButton
      size="small"
      variant="danger-ghost"
      onClick={onRemove}
      aria-label={compact ? t('common.remove') : undefined}
      testId={testId}
    >
      {compact ? '×' : t('common.remove')}
    </ActionButton>
  );
}

interface ItemButtonsProps<T> {
  items: T[];
  index: number;
  /** Called with the whole list after a move or a removal. */
  onChange: (items: T[]) => void;
  /** The up and down buttons' accessible names. */
  upLabel: string;
  downLabel: string;
  /** See `RemoveButton`. */
  compact?: boolean;
  /** The buttons' test ids are `${testId}-up`, `-down` and `-remove`. */
  testId?: string;
}

/** An item's buttons in an ordered list it edits: up, down and remove. */
export function ItemButtons<T>({
  items,
  index,
  onChange,
  upLabel,
  downLabel,
  compact,
  testId,
}: ItemButtonsProps<T>) {
  const step = (to: number, label: string, arrow: string, suffix: string) => (
    <ActionButton
      size="small"
      disabled={to < 0 || to >= items.length}
      onClick={() => onChange(move(items, index, to))}
      aria-label={label}
      testId={testId && `${testId}-${suffix}`}
    >
      {arrow}
    </ActionButton>
  );
  return (
    <div className="button-row">
      {step(index - 1, upLabel, '↑', 'up')}
      {step(index + 1, downLabel, '↓', 'down')}
      <RemoveButton
        onRemove={() => onChange(items.filter((_, i) => i !== index))}
        compact={compact}
        testId={testId && `${testId}-remove`}
      />
    </div>
  );
}

interface DeleteButtonProps {
  onDelete: () => void;
  disabled?: boolean;
  /** Why it is disabled, as its tooltip. */
  title?: string | undefined;
  testId: string;
}

/**
 * Deletes a row's item (a block, a category, a field, a template): a small red-text "Delete"
 * button. The caller asks for confirmation first where the deletion wants it.
 */
export function DeleteButton({ onDelete, disabled, title, testId }: DeleteButtonProps) {
  const { t } = useTranslation();
  return (
    <ActionButton
      size="small"
      variant="danger-ghost"
      disabled={disabled}
      title={title}
      testId={testId}
      onClick={onDelete}
    >
      {t('common.delete')}
    </ActionButton>
  );
}
