import { createReadStream, existsSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { dirname, extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONTENT_SECURITY_POLICY } from './security-headers.js';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

/**
 * Where the built renderer lives: `out/renderer` at the package root. Both the CLI build
 * (`dist/server/static.js`) and the Electron bundle (`out/main/index.js`) sit two folders
 * below the root, so one relative path serves both.
 */
export function defaultRendererDir(): string {
  return resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'out', 'renderer');
}

const FALLBACK_PAGE = `<!doctype html><meta charset="utf-8"><title>MCPulse Devtools</title>
<body style="font:14px system-ui;margin:3rem">
<h1>MCPulse Devtools is running</h1>
<p>The ingest endpoint and the JSON API are up, but the dashboard has not been built.
Run <code>npm run build</code> and reload.</p></body>`;

/**
 * A path that names a file rather than a page: anything under an `assets` folder, or ending in
 * an extension the build produces. Answering those with index.html would hand a browser HTML
 * for a script — a blank page instead of an error anyone can see.
 */
const isFilePath = (pathname: string): boolean =>
  /(^|\/)assets\//.test(pathname) || (extname(pathname) in TYPES && !pathname.endsWith('.html'));

/** A decoded path, or null for a malformed escape (`%E0`). */
function decodePath(pathname: string): string | null {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return null;
  }
}

/**
 * Serves the single-page app from `root`: real files as they are (hashed assets cached for a
 * year), a 404 for a missing file, and anything else as `index.html` so client-side routes
 * survive a reload (the app shows its own "not found" page for a path it does not know).
 */
export function serveStatic(root: string, pathname: string, res: ServerResponse): void {
  const decoded = decodePath(pathname);
  const safe = normalize(decoded ?? '/').replace(/^([/\\])+/, '');
  let file = join(root, safe);
  if (!file.startsWith(root + sep) && file !== root) file = join(root, 'index.html');
  const found = existsSync(file) && statSync(file).isFile();
  if (!found && (decoded === null || isFilePath(decoded))) {
    res.writeHead(404, {
      'content-type': 'text/plain; charset=utf-8',
      'cache-control': 'no-cache',
    });
    res.end(`not found: ${(decoded ?? pathname).slice(0, 200)}\n`);
    return;
  }
  if (!found) file = join(root, 'index.html');
  const isHtml = file.endsWith('.html');
  if (!existsSync(file)) {
    res.writeHead(200, {
      'content-type': TYPES['.html']!,
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    });
    res.end(FALLBACK_PAGE);
    return;
  }
  res.writeHead(200, {
    'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
    'cache-control':
      isHtml || !file.includes(`${sep}assets${sep}`)
        ? 'no-cache'
        : 'public, max-age=31536000, immutable',
    ...(isHtml ? { 'content-security-policy': CONTENT_SECURITY_POLICY } : {}),
  });
  createReadStream(file).pipe(res);
}
