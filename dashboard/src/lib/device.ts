/** Phones and tablets get the /mobile notice: the editor needs a desktop. */
export function isMobileDevice(): boolean {
  const agent = navigator.userAgent;
  if (/Android|iPhone|iPad|iPod|Mobile|IEMobile|Opera Mini/i.test(agent)) return true;
  return window.matchMedia('(pointer: coarse) and (hover: none)').matches;
}
