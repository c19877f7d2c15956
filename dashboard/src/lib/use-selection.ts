import { useState } from 'react';

/**
 * Checkbox selection over the rows of one list page (records, form history): which rows are
 * chosen, whether all of them are, and the changes a table needs. Ids not on `ids` (rows of
 * another page) are never reported as chosen.
 */
export function useSelection(ids: number[]) {
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const chosen = ids.filter((id) => selected.has(id));
  return {
    chosen,
    allChosen: ids.length > 0 && chosen.length === ids.length,
    isChosen: (id: number) => selected.has(id),
    toggle: (id: number, on: boolean) =>
      setSelected((current) => {
        const next = new Set(current);
        if (on) next.add(id);
        else next.delete(id);
        return next;
      }),
    chooseAll: (on: boolean) => setSelected(on ? new Set(ids) : new Set()),
    clear: () => setSelected(new Set()),
  };
}
