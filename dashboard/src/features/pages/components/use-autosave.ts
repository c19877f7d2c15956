import { useCallback, useEffect, useRef, useState } from 'react';
import { useLatest } from '@/lib/use-latest';

/** Autosave runs this long after the last edit (spec §4, §9). */
export const AUTOSAVE_MS = 5000;

interface Options<T> {
  /** Bumped by every edit. */
  version: number;
  /** What a save sends, as of now. */
  snapshot: T;
  persist: (snapshot: T) => Promise<void>;
  onError: (error: unknown) => void;
  /** The last save known when the editor opens (the page's updated_at). */
  initialSavedAt: Date | null;
}

/**
 * Saving (spec §4): `AUTOSAVE_MS` after the last edit, or on demand; one save at a time (a
 * request made meanwhile runs after it, with what is current then). A failed save keeps the
 * changes unsaved and waits for the next edit or click.
 */
export function useAutosave<T>({ version, snapshot, persist, onError, initialSavedAt }: Options<T>) {
  const [savedVersion, setSavedVersion] = useState(0);
  const [saving, setSaving] = useState(false);
  const [savedAt, setSavedAt] = useState<Date | null>(initialSavedAt);
  const latest = useLatest({ snapshot, version, persist, onError });
  const running = useRef(false);
  const again = useRef(false);

  const save = useCallback(async (): Promise<void> => {
    if (running.current) {
      again.current = true;
      return;
    }
    running.current = true;
    setSaving(true);
    try {
      // A save asked for meanwhile runs next, with what is current then (unless nothing changed).
      for (;;) {
        const { snapshot: sent, version: sentVersion } = latest.current;
        try {
          await latest.current.persist(sent);
          setSavedVersion(sentVersion);
          setSavedAt(new Date());
        } catch (error) {
          latest.current.onError(error);
        }
        if (!again.current) break;
        again.current = false;
        if (latest.current.version === sentVersion) break;
      }
    } finally {
      running.current = false;
      setSaving(false);
    }
  }, [latest]);

  useEffect(() => {
    if (version === savedVersion) return;
    const timer = window.setTimeout(() => void save(), AUTOSAVE_MS);
    return () => window.clearTimeout(timer);
  }, [version, savedVersion, save]);

  return { save, saving, savedAt, dirty: version !== savedVersion };
}
