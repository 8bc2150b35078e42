import type { Command } from '../io.js';

/** Placeholder until the canonical work lands. */
export const command: Command = {
  summary: '(not built yet)',
  run: async (_argv, io) => {
    io.stderr.write('not built yet\n');
    return 2;
  },
};
