// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import '@/lib/i18n';
import { ConfirmDialog, useConfirm } from './ConfirmDialog';
import { PromptDialog } from './PromptDialog';
import { Dialog } from './ui/Dialog';
import { MenuButton, MenuItem } from './ui/Menu';
import { RadioGroup } from './ui/RadioGroup';
import { Select } from './ui/Select';
import { focusFirstInvalid } from '@/lib/forms';

afterEach(cleanup);

describe('ConfirmDialog', () => {
  it('says what will happen, as an alertdialog, and calls back only on confirm', () => {
    const onConfirm = vi.fn();
    const onCancel = vi.fn();
    render(
      <ConfirmDialog
        title="Excluir 3 registros?"
        message="Esta ação não pode ser desfeita."
        confirmLabel="Excluir"
        destructive
        onConfirm={onConfirm}
        onCancel={onCancel}
      />,
    );
    const dialog = screen.getByRole('alertdialog', { name: 'Excluir 3 registros?' });
    expect(dialog.textContent).toContain('Esta ação não pode ser desfeita.');
    // Focus starts on Cancel: Enter by reflex destroys nothing.
    expect(document.activeElement).toBe(screen.getByTestId('confirm-dialog-cancel'));
    fireEvent.click(screen.getByTestId('confirm-dialog-cancel'));
    expect(onCancel).toHaveBeenCalledTimes(1);
    expect(onConfirm).not.toHaveBeenCalled();
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(onCancel).toHaveBeenCalledTimes(2);
    expect(onConfirm).not.toHaveBeenCalled();
    const action = screen.getByRole('button', { name: 'Excluir' });
    fireEvent.click(action);
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('counts with i18next plurals in the user language', async () => {
    const { default: i18n } = await import('@/lib/i18n');
    expect(i18n.t('kit.confirm.deleteRecords', { count: 3 })).toBe('Excluir 3 registros?');
    expect(i18n.t('kit.confirm.deleteRecords', { count: 1 })).toBe('Excluir 1 registro?');
    expect(i18n.t('kit.confirm.deleteRecords', { count: 3, lng: 'en' })).toBe('Delete 3 records?');
  });

  it('useConfirm resolves true on the action and false on cancel', async () => {
    const answers: boolean[] = [];
    function Screen() {
      const [dialog, askConfirm] = useConfirm();
      return (
        <>
          <button
            type="button"
            onClick={() =>
              void askConfirm({ title: 'Sair?', confirmLabel: 'Sair' }).then((answer) => answers.push(answer))
            }
          >
            ask
          </button>
          {dialog}
        </>
      );
    }
    render(<Screen />);
    fireEvent.click(screen.getByText('ask'));
    fireEvent.click(await screen.findByTestId('confirm-dialog-cancel'));
    await waitFor(() => expect(answers).toEqual([false]));
    fireEvent.click(screen.getByText('ask'));
    fireEvent.click(await screen.findByTestId('confirm-dialog-confirm'));
    await waitFor(() => expect(answers).toEqual([false, true]));
    expect(screen.queryByTestId('confirm-dialog')).toBeNull();
  });
});

describe('Dialog', () => {
  function Opener() {
    const [open, setOpen] = useState(false);
    return (
      <>
        <button type="button" onClick={() => setOpen(true)}>
          Abrir
        </button>
        <button type="button">Outro</button>
        {open && (
          <Dialog title="Configurar" onClose={() => setOpen(false)} testId="d">
            <input aria-label="Nome" />
            <button type="button">Salvar</button>
          </Dialog>
        )}
      </>
    );
  }

  it('moves focus inside, traps Tab there, and returns focus to the trigger on close', async () => {
    render(<Opener />);
    const trigger = screen.getByText('Abrir');
    trigger.focus();
    fireEvent.click(trigger);
    const dialog = await screen.findByRole('dialog', { name: 'Configurar' });
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    // Focus that tries to leave (Tab past the end, a click behind the overlay) is pulled back in.
    act(() => screen.getByText('Outro').focus());
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    fireEvent.keyDown(dialog, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(trigger));
  });

  it('closes from its × button, named in the user language', async () => {
    render(<Opener />);
    fireEvent.click(screen.getByText('Abrir'));
    fireEvent.click(await screen.findByRole('button', { name: 'Fechar' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});

describe('PromptDialog', () => {
  it('asks in a labelled text field and submits what was typed', () => {
    const onSubmit = vi.fn();
    render(
      <PromptDialog
        title="Link"
        label="Endereço do link"
        defaultValue="https://a.example"
        confirmLabel="Aplicar"
        onSubmit={onSubmit}
        onCancel={() => undefined}
      />,
    );
    const field = screen.getByLabelText<HTMLInputElement>('Endereço do link');
    expect(field.value).toBe('https://a.example');
    fireEvent.change(field, { target: { value: '/contato' } });
    fireEvent.click(screen.getByRole('button', { name: 'Aplicar' }));
    expect(onSubmit).toHaveBeenCalledWith('/contato');
  });
});

describe('MenuButton', () => {
  function Menu(props: { onAction: (key: string) => void }) {
    return (
      <MenuButton label="Ações" testId="trigger">
        <MenuItem id="dup" onAction={() => props.onAction('dup')}>
          Duplicar
        </MenuItem>
        <MenuItem id="ren" onAction={() => props.onAction('ren')}>
          Renomear
        </MenuItem>
        <MenuItem id="del" onAction={() => props.onAction('del')}>
          Excluir
        </MenuItem>
      </MenuButton>
    );
  }

  it('follows the WAI-ARIA menu pattern: ArrowDown opens, arrows move, Escape closes back to the button', async () => {
    const onAction = vi.fn();
    render(<Menu onAction={onAction} />);
    const trigger = screen.getByTestId('trigger');
    expect(trigger.getAttribute('aria-haspopup')).toBe('true');
    trigger.focus();
    fireEvent.keyDown(trigger, { key: 'ArrowDown' });
    fireEvent.keyUp(trigger, { key: 'ArrowDown' });
    const menu = await screen.findByRole('menu');
    expect(trigger.getAttribute('aria-expanded')).toBe('true');
    const items = screen.getAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual(['Duplicar', 'Renomear', 'Excluir']);
    await waitFor(() => expect(document.activeElement).toBe(items[0]));
    fireEvent.keyDown(document.activeElement as Element, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(items[1]);
    fireEvent.keyDown(document.activeElement as Element, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(items[2]);
    // ArrowUp moves back.
    fireEvent.keyDown(document.activeElement as Element, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(items[1]);
    fireEvent.keyDown(document.activeElement as Element, { key: 'Escape' });
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    expect(menu.isConnected).toBe(false);
    await waitFor(() => expect(document.activeElement).toBe(trigger));
    expect(onAction).not.toHaveBeenCalled();
  });

  it('runs the focused item on Enter and closes', async () => {
    const onAction = vi.fn();
    render(<Menu onAction={onAction} />);
    const trigger = screen.getByTestId('trigger');
    trigger.focus();
    fireEvent.keyDown(trigger, { key: 'ArrowUp' });
    fireEvent.keyUp(trigger, { key: 'ArrowUp' });
    await screen.findByRole('menu');
    const items = screen.getAllByRole('menuitem');
    // ArrowUp opens on the last item.
    await waitFor(() => expect(document.activeElement).toBe(items[2]));
    fireEvent.keyDown(document.activeElement as Element, { key: 'Enter' });
    fireEvent.keyUp(document.activeElement as Element, { key: 'Enter' });
    expect(onAction).toHaveBeenCalledWith('del');
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
  });
});

describe('Dialog, focus lost to the page', () => {
  it('still closes the innermost dialog on Escape', async () => {
    const outer = vi.fn();
    const inner = vi.fn();
    render(
      <>
        <Dialog title="Fora" onClose={outer}>
          <p>fora</p>
        </Dialog>
        <Dialog title="Dentro" onClose={inner}>
          <p>dentro</p>
        </Dialog>
      </>,
    );
    await screen.findByText('dentro');
    act(() => (document.activeElement as HTMLElement | null)?.blur());
    fireEvent.keyDown(document.body, { key: 'Escape' });
    expect(inner).toHaveBeenCalledTimes(1);
    expect(outer).not.toHaveBeenCalled();
  });
});

/** The texts the control's aria-describedby names, joined. */
function describedBy(control: Element): string {
  return (control.getAttribute('aria-describedby') ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' | ');
}

describe('Select and RadioGroup errors', () => {
  const fruits = [
    { id: 'apple', label: 'Maçã' },
    { id: 'pear', label: 'Pera' },
  ];

  // The list button takes no aria-invalid (ARIA does not support it on a button): the field is marked.
  it("Select shows its error at the field, linked to the list button, which a form's focus reaches", () => {
    const { container, rerender } = render(
      <Select
        label="Fruta"
        options={fruits}
        value={null}
        onChange={() => {}}
        description="Uma só"
        testId="s"
      />,
    );
    const button = screen.getByRole('button');
    expect(describedBy(button)).toBe('Uma só');
    expect(screen.getByTestId('s').getAttribute('data-invalid')).toBeNull();

    rerender(
      <Select
        label="Fruta"
        options={fruits}
        value={null}
        onChange={() => {}}
        description="Uma só"
        error="Escolha uma fruta."
        required
        testId="s"
      />,
    );
    expect(describedBy(button)).toBe('Uma só | Escolha uma fruta.');
    expect(screen.getByRole('alert').textContent).toBe('Escolha uma fruta.');
    expect(screen.getByTestId('s').getAttribute('data-invalid')).toBe('true');
    expect(screen.getByTestId('s').textContent).toContain('Fruta *');
    // The focus goes to the button, not to the native select React Aria hides beside it.
    expect(focusFirstInvalid(container)).toBe(button);
    expect(document.activeElement).toBe(button);
  });

  it('RadioGroup shows its error at the group, linked to each radio, and the focus reaches the chosen one', () => {
    const onChange = vi.fn();
    const { container, rerender } = render(
      <RadioGroup label="Fruta" options={fruits} value="pear" onChange={onChange} testId="r" />,
    );
    const group = screen.getByRole('radiogroup', { name: 'Fruta' });
    expect(group.getAttribute('aria-invalid')).toBeNull();
    fireEvent.click(screen.getByLabelText('Maçã'));
    expect(onChange).toHaveBeenCalledWith('apple');

    rerender(
      <RadioGroup
        label="Fruta"
        options={[...fruits, { id: 'plum', label: 'Ameixa', isDisabled: true }]}
        value="pear"
        onChange={onChange}
        error="Esta fruta acabou."
        testId="r"
      />,
    );
    expect(group.getAttribute('aria-invalid')).toBe('true');
    expect(group.getAttribute('data-invalid')).toBe('true');
    for (const radio of screen.getAllByRole('radio')) expect(describedBy(radio)).toBe('Esta fruta acabou.');
    expect(screen.getByRole('alert').textContent).toBe('Esta fruta acabou.');
    // Tab would reach the chosen radio (the others are out of the tab order): so does the form.
    expect(focusFirstInvalid(container)).toBe(screen.getByLabelText('Pera'));
    expect(document.activeElement).toBe(screen.getByLabelText('Pera'));
  });
});
