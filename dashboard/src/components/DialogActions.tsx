import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ActionButton } from './ActionButton';

export interface DialogActionsProps {
  /** The way out without acting: Cancel before the action, Close after it failed. */
  onCancel: () => void;
  /** The way out's text; "Cancel" unless told. */
  cancelLabel?: ReactNode;
  cancelTestId?: string;
  /** Disables the way out while the action runs. */
  cancelDisabled?: boolean;
  /** The action's text: what it does ("Publish", "Try again"), never "OK". */
  actionLabel: ReactNode;
  /** Runs the action; with `form` instead, the action submits that form. */
  onAction?: () => void;
  /** The id of the form the action submits. */
  form?: string;
  /** A red action, for what destroys data or takes something down. */
  destructive?: boolean;
  actionTestId?: string;
  actionDisabled?: boolean;
  /** The action takes the focus when the dialog opens. */
  autoFocus?: boolean;
}

/**
 * A dialog's footer: the way out (Cancel or Close) and the action, side by side. The asking
 * modals (publish, unpublish, remove a domain, delete a block) and the editors' dialogs end on it.
 */
export function DialogActions({
  onCancel,
  cancelLabel,
  cancelTestId,
  cancelDisabled,
  actionLabel,
  onAction,
  form,
  destructive = false,
  actionTestId,
  actionDisabled,
  autoFocus,
}: DialogActionsProps) {
  const { t } = useTranslation();
  return (
    <div className="button-row">
      <ActionButton onClick={onCancel} disabled={cancelDisabled} testId={cancelTestId}>
        {cancelLabel ?? t('common.cancel')}
      </ActionButton>
      <button
        type={form ? 'submit' : 'button'}
        form={form}
        className={destructive ? 'button button-danger' : 'button button-primary'}
        onClick={onAction}
        disabled={actionDisabled}
        data-testid={actionTestId}
        autoFocus={autoFocus}
      >
        {actionLabel}
      </button>
    </div>
  );
}

/** The one button of a dialog whose action is done: Close, focused. */
export function DoneButton({ onClose, testId }: { onClose: () => void; testId: string }) {
  const { t } = useTranslation();
  return (
    <ActionButton variant="primary" onClick={onClose} testId={testId} autoFocus>
      {t('common.close')}
    </ActionButton>
  );
}

/** What a dialog says while its action runs, with a spinner; announced politely. */
export function Progress({ testId, children }: { testId: string; children: ReactNode }) {
  return (
    <p role="status" aria-live="polite" data-testid={testId}>
      <span className="spinner" aria-hidden="true" /> {children}
    </p>
  );
}

/** What a dialog that asks before an action calls its buttons. */
export interface ConfirmLabels {
  /** The action's test id is `${testId}-confirm`, then `${testId}-retry`. */
  testId: string;
  /** The catalogue key of the action's text ("Publish"). */
  confirmKey: string;
  /** The catalogue key of trying again. */
  retryKey: string;
  destructive?: boolean;
}

export interface ConfirmActionsProps extends ConfirmLabels {
  /** The action failed: Close and Try again, instead of Cancel and the action. */
  failed: boolean;
  onClose: () => void;
  /** Runs the action, the first time and again. */
  onConfirm: () => void;
}

/**
 * The footer of a dialog that asks before an action the server runs (publish, unpublish, remove
 * a domain): Cancel and the action, which takes the focus; once the action failed, Close and
 * Try again.
 */
export function ConfirmActions({
  failed,
  onClose,
  onConfirm,
  testId,
  confirmKey,
  retryKey,
  destructive,
}: ConfirmActionsProps) {
  const { t } = useTranslation();
  return (
    <DialogActions
      onCancel={onClose}
      cancelLabel={failed ? t('common.close') : t('common.cancel')}
      actionLabel={failed ? t(retryKey) : t(confirmKey)}
      onAction={onConfirm}
      destructive={destructive}
      actionTestId={failed ? `${testId}-retry` : `${testId}-confirm`}
      autoFocus={!failed}
    />
  );
}
