/** One word for a POSIX shell, quoted only when it has to be (paths with spaces, quotes). */
export const shellWord = (word: string): string =>
  /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
