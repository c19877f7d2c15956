import type { ReactNode } from 'react';
import { Button as AriaButton, type ButtonProps as AriaButtonProps } from 'react-aria-components';

export interface ButtonProps extends Omit<AriaButtonProps, 'className' | 'children'> {
  variant?: 'default' | 'primary' | 'danger' | 'danger-ghost';
  size?: 'default' | 'small';
  className?: string;
  children: ReactNode;
  testId?: string;
}

/** The `.button` classes of a variant and size (`button button-primary button-small`). */
export function buttonClass(
  variant: ButtonProps['variant'] = 'default',
  size: ButtonProps['size'] = 'default',
) {
  const classes = ['button'];
  if (variant !== 'default') classes.push(`button-${variant}`);
  if (size === 'small') classes.push('button-small');
  return classes.join(' ');
}

/**
 * The kit's button: React Aria's `Button` (press events that behave the same for mouse, touch,
 * keyboard and screen readers; `isDisabled`, `isPending`), styled by the `.button` classes.
 */
export function Button({
  variant = 'default',
  size = 'default',
  className,
  children,
  testId,
  ...rest
}: ButtonProps) {
  const classes = [buttonClass(variant, size)];
  if (className) classes.push(className);
  return (
    <AriaButton {...rest} className={classes.join(' ')} data-testid={testId}>
      {children}
    </AriaButton>
  );
}
