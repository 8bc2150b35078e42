/** Vite's `?raw` imports: the file's text, exactly as written. */
declare module '*?raw' {
  const text: string;
  export default text;
}
