import type { Key, ReactNode } from 'react';
import { Tab, TabList, TabPanel, Tabs as AriaTabs } from 'react-aria-components';

export interface TabItem {
  id: string;
  label: ReactNode;
  content: ReactNode;
}

/**
 * Tabs on React Aria's `Tabs` (WAI-ARIA tabs pattern: arrow keys move between tabs, the panel is
 * labelled by its tab).
 */
export function Tabs({
  items,
  'aria-label': ariaLabel,
  selectedKey,
  onSelectionChange,
}: {
  items: TabItem[];
  'aria-label': string;
  selectedKey?: string;
  onSelectionChange?: (key: Key) => void;
}) {
  return (
    <AriaTabs className="tabs" selectedKey={selectedKey} onSelectionChange={onSelectionChange}>
      <TabList className="tab-list" aria-label={ariaLabel}>
        {items.map((item) => (
          <Tab key={item.id} id={item.id} className="tab">
            {item.label}
          </Tab>
        ))}
      </TabList>
      {items.map((item) => (
        <TabPanel key={item.id} id={item.id} className="tab-panel">
          {item.content}
        </TabPanel>
      ))}
    </AriaTabs>
  );
}
