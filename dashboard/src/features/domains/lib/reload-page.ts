/**
 * A full reload of the page (spec 1 §4: "Remove domain reloads the page"), in a module of its own
 * so that component tests can replace it: jsdom cannot navigate.
 */
export function reloadPage(): void {
  window.location.reload();
}
