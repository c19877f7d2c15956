/** Small typed wrappers over Web Storage; storage may be unavailable (privacy modes). */

export const storageKeys = {
  language: 'vitrine.language',
  projectView: 'vitrine.projects.view',
  projectOrder: 'vitrine.projects.order',
  intendedUrl: 'vitrine.intendedUrl',
  /** '1' while this browser has a session (see lib/auth/get-user.ts: anonymous screens ask only then). */
  signedIn: 'vitrine.signedIn',
  /** Project token of the client admin panel (this tab only). */
  clientToken: 'vitrine.clientToken',
} as const;

function safe<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    return fallback;
  }
}

export function readLocal(key: string): string | null {
  return safe(() => window.localStorage.getItem(key), null);
}

export function writeLocal(key: string, value: string): void {
  safe(() => window.localStorage.setItem(key, value), undefined);
}

export function removeLocal(key: string): void {
  safe(() => window.localStorage.removeItem(key), undefined);
}

export function readSession(key: string): string | null {
  return safe(() => window.sessionStorage.getItem(key), null);
}

export function writeSession(key: string, value: string): void {
  safe(() => window.sessionStorage.setItem(key, value), undefined);
}

export function removeSession(key: string): void {
  safe(() => window.sessionStorage.removeItem(key), undefined);
}

/** Remembers where a signed-out visitor wanted to go. */
export function rememberIntendedUrl(url: string): void {
  writeSession(storageKeys.intendedUrl, url);
}

/** The remembered URL (only same-origin paths), cleared once taken. */
export function takeIntendedUrl(): string {
  const url = readSession(storageKeys.intendedUrl);
  removeSession(storageKeys.intendedUrl);
  return url && url.startsWith('/') && !url.startsWith('//') ? url : '/';
}
