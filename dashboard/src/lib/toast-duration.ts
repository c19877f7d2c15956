/** Spec: a toast lasts 2 seconds plus the message length divided by 50 seconds. */
export function toastDuration(message: string): number {
  return 2000 + (message.length / 50) * 1000;
}
