/**
 * The markdown README ("Point your SDK here") and docs/setup.md carry between the setup markers,
 * rendered from the snippets in `./sdk-snippets.ts` — the same ones the Setup page shows.
 * `scripts/write-setup-docs.ts` writes it; test/docs/setup-docs.test.ts holds the files to it.
 */
import { SDK_SETUPS, setupCode, WAITING_CHECKS } from './sdk-snippets.js';

const LOCAL_ENDPOINT = 'http://localhost:7857';

/** The markdown README ("Point your SDK here") and docs/setup.md carry, byte for byte. */
export function setupMarkdown(endpoint = LOCAL_ENDPOINT): string {
  const lines = [
    `Locally any non-empty key works — one key is one project, so give each server its own. No MCPulse SDK reads \`MCPULSE_ENDPOINT\` or \`MCPULSE_KEY\` from the environment: set the endpoint (\`${endpoint}\`) with the SDK's own option, as below. The key is never stored: only its SHA-256, and its first 12 characters as a label.`,
    '',
    '| SDK | version read | endpoint option | key option | environment variables it reads |',
    '| --- | --- | --- | --- | --- |',
    ...SDK_SETUPS.map(
      (s) =>
        `| ${s.label} (\`${s.packageName}\`) | ${s.source ? `${s.version} ([${s.source.path}](https://github.com/${s.source.repo}/blob/main/${s.source.path}))` : `${s.version}`} | \`${s.endpointOption}\` | \`${s.keyOption}\` | ${s.envRead} |`,
    ),
  ];
  for (const s of SDK_SETUPS) {
    lines.push('', `### ${s.label}`, '', `Install: \`${s.install}\` — ${s.installNote}`, '');
    lines.push('```' + s.lang, setupCode(s, endpoint), '```', '');
    lines.push(`Flushes: ${s.flush}.`);
    for (const note of s.notes) lines.push(`- ${note}`);
  }
  lines.push('', '### Nothing arrives?', '');
  for (const check of WAITING_CHECKS) lines.push(`- ${check}`);
  return lines.join('\n') + '\n';
}

/** The markers around the generated part of README.md and docs/setup.md. */
export const SETUP_MARKERS = {
  start: '<!-- setup:start (generated from renderer/src/pages/setup/sdk-snippets.ts) -->',
  end: '<!-- setup:end -->',
} as const;
