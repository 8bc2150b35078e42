import type { Command } from '../io.js';

/** Placeholder: replaced by the server work in this same session. */
export const command: Command = {
  summary: '(not built yet)',
  run: async (_argv, io) => {
    io.stderr.write('not built yet\n');
    return 2;
  },
};
