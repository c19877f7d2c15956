/** Reads a chosen file as a data: URL (upload and import bodies). */
export function readAsDataUrl(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    // readAsDataURL always yields a string (an ArrayBuffer comes only from readAsArrayBuffer).
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsDataURL(file);
  });
}

/** png/jpg/jpeg only: what image fields and the rich-text editor accept. */
export function isJpgOrPng(file: { name: string; type?: string }): boolean {
  return /\.(png|jpe?g)$/i.test(file.name) || file.type === 'image/png' || file.type === 'image/jpeg';
}
