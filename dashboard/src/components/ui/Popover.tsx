import type { ReactNode } from 'react';
import {
  Button,
  Dialog,
  DialogTrigger,
  Popover as AriaPopover,
  type PopoverProps as AriaPopoverProps,
} from 'react-aria-components';

export interface PopoverProps {
  /** The trigger button's content. */
  trigger: ReactNode;
  /** Accessible name of the trigger when it shows only an icon. */
  triggerLabel?: string;
  children: ReactNode;
  placement?: AriaPopoverProps['placement'];
  /** The popover's accessible name. */
  'aria-label': string;
  triggerClassName?: string;
}

/**
 * A button that opens non-modal content beside it (React Aria's `DialogTrigger` + `Popover`):
 * positioned to stay on screen, closed by Escape or an outside click, focus returned to the
 * button.
 */
export function Popover({
  trigger,
  triggerLabel,
  children,
  placement = 'bottom start',
  triggerClassName,
  ...rest
}: PopoverProps) {
  return (
    <DialogTrigger>
      <Button className={triggerClassName ?? 'button button-small'} aria-label={triggerLabel}>
        {trigger}
      </Button>
      <AriaPopover className="popover" placement={placement}>
        <Dialog className="popover-dialog" aria-label={rest['aria-label']}>
          {children}
        </Dialog>
      </AriaPopover>
    </DialogTrigger>
  );
}
