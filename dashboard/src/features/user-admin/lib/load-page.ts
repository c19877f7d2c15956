/**
 * A full page load at `url`, in a module of its own so that component tests can replace it
 * (jsdom cannot navigate). After 'login as' and 'back to my account' the session belongs to
 * another user: every cached query is stale, so the whole app starts over.
 */
export function loadPage(url: string): void {
  window.location.assign(url);
}
