import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, Dialog as AriaDialog, Heading, Modal, ModalOverlay } from 'react-aria-components';

export interface DialogProps {
  /** The dialog's heading, also its accessible name. */
  title: string;
  /** Called when the person closes it: the × button, Escape, or a click outside. */
  onClose: () => void;
  children: ReactNode;
  /** The dialog's actions, under its body. */
  footer?: ReactNode;
  testId?: string;
  /** `alertdialog` for confirmations that interrupt (WAI-ARIA alertdialog pattern). */
  role?: 'dialog' | 'alertdialog';
  /** `wide` for editors (the source-code dialog). */
  size?: 'default' | 'wide';
  /** False keeps it open on an outside click (a form with unsaved input, a confirmation). */
  isDismissable?: boolean;
}

/** Open dialogs, innermost last: Escape with focus lost to the page closes only the innermost. */
const openDialogs: object[] = [];

/**
 * Escape closes a dialog through React Aria while focus is inside it. A focused button that
 * becomes disabled (a submit while its request runs) drops focus to <body> without a blur event in
 * Chromium, so focus containment can't bring it back; Escape pressed then still closes the
 * innermost dialog.
 */
function useEscapeFromBody(onClose: () => void) {
  const close = useRef(onClose);
  useEffect(() => {
    close.current = onClose;
  });
  useEffect(() => {
    const token = {};
    openDialogs.push(token);
    const onKey = (event: KeyboardEvent) => {
      const lost = event.target === document.body || event.target === document.documentElement;
      if (event.key === 'Escape' && lost && openDialogs.at(-1) === token) close.current();
    };
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('keydown', onKey);
      openDialogs.splice(openDialogs.indexOf(token), 1);
    };
  }, []);
}

/**
 * The kit's modal dialog, on React Aria's `ModalOverlay`/`Modal`/`Dialog`: focus moves into the
 * dialog when it opens, stays trapped inside while it is open, and returns to the element that
 * opened it when it closes; Escape closes it; the page behind is inert to screen readers and
 * does not scroll. The screen that shows it mounts it while open (`{open && <Dialog …/>}`) and
 * unmounts it in `onClose`.
 */
export function Dialog({
  title,
  onClose,
  children,
  footer,
  testId,
  role = 'dialog',
  size = 'default',
  isDismissable = true,
}: DialogProps) {
  const { t } = useTranslation();
  useEscapeFromBody(onClose);
  return (
    <ModalOverlay
      isOpen
      isDismissable={isDismissable}
      onOpenChange={(open) => {
        if (!open) onClose();
      }}
      className="modal-backdrop"
    >
      <Modal className={size === 'wide' ? 'modal modal-wide' : 'modal'}>
        <AriaDialog className="modal-dialog" role={role} data-testid={testId}>
          <header className="modal-header">
            <Heading slot="title">{title}</Heading>
            <Button className="icon-button" aria-label={t('common.close')} onPress={onClose}>
              ×
            </Button>
          </header>
          <div className="modal-body">{children}</div>
          {footer && <footer className="modal-footer">{footer}</footer>}
        </AriaDialog>
      </Modal>
    </ModalOverlay>
  );
}
