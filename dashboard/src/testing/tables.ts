/** What a DataTable's header row says: each column's text and its `aria-sort` (null: not sortable). */
export function tableHeaders(table: HTMLElement): { text: string; sort: string | null }[] {
  return [...table.querySelectorAll('thead th')].map((header) => ({
    text: header.textContent ?? '',
    sort: header.getAttribute('aria-sort'),
  }));
}

/** True when the table sits in the scroll wrapper, inside a card, that keeps it from widening the page. */
export function scrollsInsideItsCard(table: HTMLElement): boolean {
  const wrapper = table.parentElement;
  return wrapper !== null && wrapper.classList.contains('table-scroll') && wrapper.closest('.card') !== null;
}
