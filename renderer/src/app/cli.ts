/**
 * The commands the dashboard suggests, as lines that run where they are shown (issue 43). A
 * clone puts no `mcpulse-devtools` on PATH, so the server says how its own CLI runs from any
 * folder (`status.cli`: `node /abs/dist/cli/main.js`) and every suggestion starts with that.
 */
import { shellWord } from '../../../src/shared/shell-word';
import { useAppData } from './status';

/**
 * Before the status answers, and where there is no CLI beside the server (a packaged app):
 * the package's own bin through npx, which resolves it inside the checkout.
 */
export const FALLBACK_CLI: readonly string[] = ['npx', 'mcpulse-devtools'];

/** `args` (a CLI command and its options) behind the words that run this install's CLI. */
export function cliLine(cli: readonly string[] | null | undefined, args: string): string {
  return [...(cli ?? FALLBACK_CLI).map(shellWord), args].join(' ');
}

/** `cli('demo')` → the full line for this dashboard's own CLI. */
export function useCli(): (args: string) => string {
  const { status } = useAppData();
  return (args) => cliLine(status?.cli, args);
}
