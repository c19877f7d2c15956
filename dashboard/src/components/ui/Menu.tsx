import type { ReactNode } from 'react';
import {
  Button,
  Menu as AriaMenu,
  MenuItem as AriaMenuItem,
  MenuTrigger,
  Popover,
  type MenuItemProps as AriaMenuItemProps,
} from 'react-aria-components';

export interface MenuButtonProps {
  /** The trigger's text. */
  label: ReactNode;
  /** `MenuItem`s. */
  children: ReactNode;
  /** Accessible name of the menu (defaults to the trigger's). */
  'aria-label'?: string;
  isDisabled?: boolean;
  className?: string;
  testId?: string;
}

/**
 * A button that opens a menu, on React Aria's `MenuTrigger`/`Menu`: the WAI-ARIA menu button
 * pattern. Enter, Space or ArrowDown open it with focus on the first item, ArrowUp on the last;
 * the arrow keys, Home and End move between items, typing jumps to an item; Escape closes it and
 * focus goes back to the button.
 */
export function MenuButton({ label, children, isDisabled, className, testId, ...rest }: MenuButtonProps) {
  return (
    <MenuTrigger>
      <Button className={className ?? 'button button-small'} isDisabled={isDisabled} data-testid={testId}>
        {label} <span aria-hidden="true">▾</span>
      </Button>
      <Popover className="popover menu-popover" placement="bottom start">
        <AriaMenu className="menu" aria-label={rest['aria-label']}>
          {children}
        </AriaMenu>
      </Popover>
    </MenuTrigger>
  );
}

export interface MenuItemProps extends Omit<AriaMenuItemProps, 'className'> {
  testId?: string;
  destructive?: boolean;
}

export function MenuItem({ testId, destructive, ...rest }: MenuItemProps) {
  return (
    <AriaMenuItem
      {...rest}
      className={destructive ? 'menu-item menu-item-danger' : 'menu-item'}
      data-testid={testId}
    />
  );
}
