/** Ordering of the admin template list. */
import type { TemplateView } from '@/features/template-admin/types';

/** The list as the server sorts it: by order, then name (then id, for a stable result). */
export function sortTemplates(templates: readonly TemplateView[]): TemplateView[] {
  return [...templates].sort((a, b) => a.order - b.order || a.name.localeCompare(b.name) || a.id - b.id);
}

export interface OrderChange {
  id: number;
  order: number;
}

/**
 * After moving `from` to the place of `to` in the sorted list, the new order of every row whose
 * value changes. Rows are numbered 1, 2, 3… in their new positions, so the result is the moved
 * rows (and any row whose stored order was a tie or a gap).
 */
export function reorderChanges(
  templates: readonly TemplateView[],
  fromId: number,
  toId: number,
): OrderChange[] {
  const list = sortTemplates(templates);
  const from = list.findIndex((template) => template.id === fromId);
  const to = list.findIndex((template) => template.id === toId);
  if (from < 0 || to < 0 || from === to) return [];
  const [moved] = list.splice(from, 1);
  if (!moved) return [];
  list.splice(to, 0, moved);
  return list.flatMap((template, index) =>
    template.order === index + 1 ? [] : [{ id: template.id, order: index + 1 }],
  );
}
