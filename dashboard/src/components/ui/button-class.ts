/**
 * The kit's `.button` classes, apart from the React Aria `Button` (ui/Button.tsx): the native
 * buttons and links that look like it (`ActionButton`, `ButtonLink`, the error screens in the
 * entry chunk) need only these, not React Aria.
 */
export type ButtonVariant = 'default' | 'primary' | 'danger' | 'danger-ghost';
export type ButtonSize = 'default' | 'small';

/** The `.button` classes of a variant and size (`button button-primary button-small`). */
export function buttonClass(variant: ButtonVariant = 'default', size: ButtonSize = 'default') {
  const classes = ['button'];
  if (variant !== 'default') classes.push(`button-${variant}`);
  if (size === 'small') classes.push('button-small');
  return classes.join(' ');
}
