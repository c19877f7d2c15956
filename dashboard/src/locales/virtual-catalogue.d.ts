/** One part of a language's catalogue, built by vite.config.ts (see src/locales/parts.ts). */
declare module 'virtual:catalogue/*' {
  const sections: Record<string, unknown>;
  export default sections;
}
