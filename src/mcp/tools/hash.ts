/** `hash_arguments`: the args_hash SDKs send for given arguments (no database needed). */
import { z } from 'zod';
import { argsHash, canonicalOrNull, UNHASHABLE } from '../../canonical/node.js';
import { defineTool } from '../tool.js';

/** The hash and canonical form of some tool-call arguments. */
export const hashArguments = defineTool({
  name: 'hash_arguments',
  description:
    'The args_hash MCPulse SDKs send for given tool-call arguments (first 12 hex of SHA-256 of the RFC 8785 canonical JSON), with the canonical form — to find calls made with these arguments.',
  inputSchema: {
    arguments: z
      .unknown()
      .optional()
      .describe('The arguments as JSON (an object, usually); omit for absent arguments'),
    json: z.string().optional().describe('Or: the arguments as JSON text'),
  },
  // Never opens the database: hashing must work before anything was recorded.
  async run(a) {
    let value: unknown = a.arguments;
    if (a.json !== undefined) {
      try {
        value = JSON.parse(a.json);
      } catch (error) {
        throw new Error(`json is not valid JSON: ${(error as Error).message}`);
      }
    }
    const canonical = canonicalOrNull(value === undefined ? {} : value);
    const hash = argsHash(value);
    return { args_hash: hash, canonical, unhashable: hash === UNHASHABLE };
  },
});
