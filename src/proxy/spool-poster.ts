/**
 * The detached poster of a spool file (spool.ts): `node spool-poster.js FILE`, key in
 * $MCPULSE_PROXY_SPOOL_KEY, the dashboard's owner token (for content) in $MCPULSE_DEVTOOLS_TOKEN. It claims the file (renames it, so no second poster takes it),
 * posts each request in order, crossing each off the file as the dashboard accepts it, and
 * retries while the dashboard is away, until $MCPULSE_PROXY_SPOOL_DEADLINE_MS (10 minutes by
 * default); then it puts the file back for the next proxy. A request the dashboard refuses
 * outright (4xx other than 408/429) will never be accepted and is crossed off.
 */
import { readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { TOKEN_ENV, TOKEN_HEADER } from '../shared/owner-token.js';
import { PROXY_CONTENT_PATH } from '../shared/proxy-content.js';
import { isFinalRefusal, SPOOL_KEY_ENV, type SpoolFile } from './spool.js';

const REQUEST_TIMEOUT_MS = 10_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Posts one request; whether it is done with (accepted, or refused for good). */
async function post(endpoint: string, key: string, path: string, body: string): Promise<boolean> {
  try {
    const res = await fetch(`${endpoint}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${key}`,
        'user-agent': 'mcpulse-devtools-proxy/1 (spool)',
        // The proxy hands its owner token down in the environment, as it does the key.
        ...(path === PROXY_CONTENT_PATH && process.env[TOKEN_ENV]
          ? { [TOKEN_HEADER]: process.env[TOKEN_ENV] }
          : {}),
      },
      body,
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    await res.body?.cancel().catch(() => {});
    if (res.ok) return true;
    return isFinalRefusal(res.status);
  } catch {
    return false;
  }
}

async function main(): Promise<void> {
  const file = process.argv[2];
  const key = process.env[SPOOL_KEY_ENV];
  if (!file || !key) return;
  const claimed = `${file}.sending-${process.pid}`;
  try {
    renameSync(file, claimed);
  } catch {
    return; // Another poster has it.
  }
  const deadline =
    Date.now() + (Number(process.env.MCPULSE_PROXY_SPOOL_DEADLINE_MS) || 10 * 60_000);
  const spool = JSON.parse(readFileSync(claimed, 'utf8')) as SpoolFile;
  let backoff = 250;
  while (spool.posts.length > 0) {
    const next = spool.posts[0]!;
    if (await post(spool.endpoint, key, next.path, next.body)) {
      spool.posts.shift();
      backoff = 250;
      if (spool.posts.length > 0) writeFileSync(claimed, JSON.stringify(spool), { mode: 0o600 });
      continue;
    }
    if (Date.now() + backoff > deadline) {
      writeFileSync(claimed, JSON.stringify(spool), { mode: 0o600 });
      renameSync(claimed, file);
      return;
    }
    await sleep(backoff);
    backoff = Math.min(backoff * 2, 10_000);
  }
  unlinkSync(claimed);
}

void main().catch(() => {});
