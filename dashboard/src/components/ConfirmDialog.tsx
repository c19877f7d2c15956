import { useCallback, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from './ui/Button';
import { Dialog } from './ui/Dialog';

export interface ConfirmOptions {
  /** The question, naming what will happen: "Excluir 3 registros?". */
  title: string;
  /** What follows from it: "Esta ação não pode ser desfeita." */
  message?: ReactNode;
  /** The confirm button says the action ("Excluir"), never "OK". */
  confirmLabel: string;
  /** A red confirm button for what destroys data. */
  destructive?: boolean;
}

export interface ConfirmDialogProps extends ConfirmOptions {
  onConfirm: () => void;
  onCancel: () => void;
  isPending?: boolean;
}

/**
 * A confirmation (WAI-ARIA alertdialog): says what will happen and calls `onConfirm` only when
 * the person presses the action; Cancel, Escape and × call `onCancel`. Focus starts on Cancel, so
 * Enter by reflex does not destroy anything.
 */
export function ConfirmDialog({
  title,
  message,
  confirmLabel,
  destructive = false,
  onConfirm,
  onCancel,
  isPending = false,
}: ConfirmDialogProps) {
  const { t } = useTranslation();
  const footer = (
    <div className="button-row">
      <Button onPress={onCancel} autoFocus testId="confirm-dialog-cancel">
        {t('common.cancel')}
      </Button>
      <Button
        variant={destructive ? 'danger' : 'primary'}
        onPress={onConfirm}
        isDisabled={isPending}
        testId="confirm-dialog-confirm"
      >
        {confirmLabel}
      </Button>
    </div>
  );
  return (
    <Dialog
      title={title}
      onClose={onCancel}
      footer={footer}
      role="alertdialog"
      isDismissable={false}
      testId="confirm-dialog"
    >
      {message && <p className="confirm-message">{message}</p>}
    </Dialog>
  );
}

/**
 * `const [confirmDialog, confirm] = useConfirm()`: `await askConfirm({...})` opens a ConfirmDialog
 * and resolves true on the action, false on cancel; the screen renders `{confirmDialog}`. It
 * replaces the browser's confirm box with the same flow in the handler that asks.
 */
export function useConfirm(): [ReactNode, (options: ConfirmOptions) => Promise<boolean>] {
  const [options, setOptions] = useState<ConfirmOptions | null>(null);
  const resolver = useRef<((answer: boolean) => void) | null>(null);
  const ask = useCallback((next: ConfirmOptions) => {
    resolver.current?.(false);
    setOptions(next);
    return new Promise<boolean>((resolve) => {
      resolver.current = resolve;
    });
  }, []);
  const answer = (value: boolean) => {
    resolver.current?.(value);
    resolver.current = null;
    setOptions(null);
  };
  const element = options ? (
    <ConfirmDialog {...options} onConfirm={() => answer(true)} onCancel={() => answer(false)} />
  ) : null;
  return [element, ask];
}
