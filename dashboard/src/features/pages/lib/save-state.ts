/** The top bar's save indicator (spec §2, §4): 'Saved HH:MM:SS', 'Save changes' or 'Saving...'. */
export type SaveState = { kind: 'saving' } | { kind: 'dirty' } | { kind: 'saved'; at: Date | null };

export function saveState(saving: boolean, dirty: boolean, savedAt: Date | null): SaveState {
  if (saving) return { kind: 'saving' };
  if (dirty) return { kind: 'dirty' };
  return { kind: 'saved', at: savedAt };
}

/** Local time as HH:MM:SS. */
export function clockTime(date: Date): string {
  return [date.getHours(), date.getMinutes(), date.getSeconds()]
    .map((n) => String(n).padStart(2, '0'))
    .join(':');
}
