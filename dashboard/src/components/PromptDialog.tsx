import { useCallback, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Form, Input, Label, TextField } from 'react-aria-components';
import { Button } from './ui/Button';
import { Dialog } from './ui/Dialog';

export interface PromptOptions {
  title: string;
  /** The text field's visible label. */
  label: string;
  defaultValue?: string;
  confirmLabel: string;
  /** `url` for links: the browser's keyboard and checks fit. */
  type?: 'text' | 'url';
}

export interface PromptDialogProps extends PromptOptions {
  onSubmit: (value: string) => void;
  onCancel: () => void;
}

/** A dialog with one labelled text field: what replaces the browser's prompt box. */
export function PromptDialog({
  title,
  label,
  defaultValue = '',
  confirmLabel,
  type = 'text',
  onSubmit,
  onCancel,
}: PromptDialogProps) {
  const { t } = useTranslation();
  const [value, setValue] = useState(defaultValue);
  return (
    <Dialog title={title} onClose={onCancel} testId="prompt-dialog">
      <Form
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit(value);
        }}
      >
        <TextField className="field" value={value} onChange={setValue} type={type} autoFocus>
          <Label>{label}</Label>
          <Input className="input" data-testid="prompt-dialog-input" />
        </TextField>
        <div className="button-row modal-actions">
          <Button onPress={onCancel}>{t('common.cancel')}</Button>
          <Button type="submit" variant="primary" testId="prompt-dialog-confirm">
            {confirmLabel}
          </Button>
        </div>
      </Form>
    </Dialog>
  );
}

/**
 * `const [promptDialog, askText] = usePrompt()`: `await askText({...})` resolves to the text the
 * person entered, or null when they cancelled; the screen renders `{promptDialog}`.
 */
export function usePrompt(): [ReactNode, (options: PromptOptions) => Promise<string | null>] {
  const [options, setOptions] = useState<PromptOptions | null>(null);
  const resolver = useRef<((answer: string | null) => void) | null>(null);
  const ask = useCallback((next: PromptOptions) => {
    resolver.current?.(null);
    setOptions(next);
    return new Promise<string | null>((resolve) => {
      resolver.current = resolve;
    });
  }, []);
  const answer = (value: string | null) => {
    resolver.current?.(value);
    resolver.current = null;
    setOptions(null);
  };
  const element = options ? (
    <PromptDialog {...options} onSubmit={(value) => answer(value)} onCancel={() => answer(null)} />
  ) : null;
  return [element, ask];
}
