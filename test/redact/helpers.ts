/**
 * Small helpers for the redaction tests' HTTP calls and disk checks. Every request to the
 * dashboard goes through {@link send}, which carries the owner token.
 */
import { existsSync, readFileSync } from 'node:fs';
import { TOKEN_HEADERS } from '../helpers/token.js';

/** Headers every dashboard request carries: the owner token of this file's test servers. */
export const AUTH_HEADERS: Record<string, string> = TOKEN_HEADERS;

/** A JSON request to the dashboard at `url`; the status and the parsed body. */
export async function send<T = Record<string, unknown>>(
  url: string,
  method: 'GET' | 'PUT' | 'POST',
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: {
      ...AUTH_HEADERS,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as T };
}

/** The raw bytes of the database file and its `-wal` (empty when there is none), as latin1 text. */
export function databaseBytes(dbPath: string): { db: string; wal: string } {
  const read = (p: string) => (existsSync(p) ? readFileSync(p).toString('latin1') : '');
  return { db: read(dbPath), wal: read(`${dbPath}-wal`) };
}

/** The secrets of `secrets` found in the raw database bytes (should be none). */
export function secretsOnDisk(dbPath: string, secrets: readonly string[]): string[] {
  const { db, wal } = databaseBytes(dbPath);
  return secrets.flatMap((s) => [
    ...(db.includes(s) ? [`${s.slice(0, 6)}… in the database file`] : []),
    ...(wal.includes(s) ? [`${s.slice(0, 6)}… in its -wal`] : []),
  ]);
}
