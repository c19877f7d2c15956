/**
 * A full reload of the page (spec 2 §8: after a card setup "the page reloads in every case"), in a
 * module of its own so that component tests can replace it: jsdom cannot navigate.
 */
export function reloadPage(): void {
  window.location.reload();
}
