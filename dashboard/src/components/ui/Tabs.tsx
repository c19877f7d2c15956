import type { Key, ReactNode } from 'react';
import { Tab, TabList, TabPanel, Tabs as AriaTabs } from 'react-aria-components';

export interface TabItem {
  id: string;
  label: ReactNode;
  content: ReactNode;
  testId?: string;
  panelTestId?: string;
}

/**
 * Tabs on React Aria's `Tabs` (WAI-ARIA tabs pattern: the arrow keys, Home and End move between
 * tabs and select them, Tab goes into the panel, which is labelled by its tab). Only the selected
 * panel is rendered.
 */
export function Tabs({
  items,
  'aria-label': ariaLabel,
  selectedKey,
  onSelectionChange,
  className,
}: {
  items: TabItem[];
  'aria-label': string;
  selectedKey?: string;
  onSelectionChange?: (key: string) => void;
  /** Extra class of the tab list (a screen's own layout). */
  className?: string;
}) {
  return (
    <AriaTabs
      className="tabs"
      selectedKey={selectedKey}
      onSelectionChange={(key: Key) => onSelectionChange?.(String(key))}
    >
      <TabList className={className ? `tab-list ${className}` : 'tab-list'} aria-label={ariaLabel}>
        {items.map((item) => (
          <Tab key={item.id} id={item.id} className="tab" data-testid={item.testId}>
            {item.label}
          </Tab>
        ))}
      </TabList>
      {items.map((item) => (
        <TabPanel key={item.id} id={item.id} className="tab-panel" data-testid={item.panelTestId}>
          {item.content}
        </TabPanel>
      ))}
    </AriaTabs>
  );
}
