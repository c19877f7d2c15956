import type { ButtonHTMLAttributes, Ref } from 'react';
import { buttonClass, type ButtonSize, type ButtonVariant } from './ui/button-class';

export interface ActionButtonProps extends Omit<
  ButtonHTMLAttributes<HTMLButtonElement>,
  'type' | 'className'
> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Classes of its own, beside the `.button` ones. */
  className?: string;
  testId?: string;
  ref?: Ref<HTMLButtonElement>;
}

/**
 * A screen's action: a native `<button type="button">` with the kit's `.button` classes (variant,
 * size), its click, state and ARIA attributes as given. Like `ButtonLink`, it keeps the screens'
 * buttons to one spelling; the kit's React Aria `Button` serves the kit's own dialogs.
 */
export function ActionButton({ variant, size, className, testId, ...rest }: ActionButtonProps) {
  const classes = className ? `${buttonClass(variant, size)} ${className}` : buttonClass(variant, size);
  return <button type="button" {...rest} className={classes} data-testid={testId} />;
}
