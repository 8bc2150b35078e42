/**
 * A hostile MCP server over stdio, hand-written so no SDK or JSON.stringify stands between it
 * and the bytes: its one tool, `deep`, answers a result whose `structuredContent` is nested
 * `depth` arrays deep (10,000 by default), and every other tool call gets a small text answer
 * (whatever its arguments — 200,000-deep ones too). With DEEP_SERVER_CAPABILITIES=N its
 * `initialize` answer carries capabilities N levels deep. Built by string concatenation, because
 * JSON.stringify itself overflows the stack on such values.
 */
import { createInterface } from 'node:readline';

/** `[[[…"bottom"…]]]`, `depth` arrays deep. */
export function deepArray(depth: number): string {
  return '['.repeat(depth) + '"bottom"' + ']'.repeat(depth);
}

const send = (text: string) => process.stdout.write(text + '\n');
const idOf = (line: string): string | null => {
  // Only the top-level id is needed; a regex on the head avoids walking the (maybe deep) value.
  const m = /"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)/.exec(line.slice(0, 200));
  return m ? m[1]! : null;
};

const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
lines.on('line', (line) => {
  if (line.trim() === '') return;
  const id = idOf(line);
  const method = /"method"\s*:\s*"([^"]+)"/.exec(line.slice(0, 400))?.[1];
  if (id === null || method === undefined) return; // a notification, or an answer
  if (method === 'initialize') {
    const caps = Number(process.env.DEEP_SERVER_CAPABILITIES ?? 0);
    const experimental = caps > 0 ? `,"experimental":{"deep":${deepArray(caps)}}` : '';
    send(
      `{"jsonrpc":"2.0","id":${id},"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}${experimental}},"serverInfo":{"name":"deep-server","version":"1.0.0"}}}`,
    );
  } else if (method === 'tools/list') {
    send(
      `{"jsonrpc":"2.0","id":${id},"result":{"tools":[{"name":"deep","inputSchema":{"type":"object"}},{"name":"echo","inputSchema":{"type":"object"}}]}}`,
    );
  } else if (method === 'tools/call') {
    const name = /"name"\s*:\s*"([^"]+)"/.exec(line.slice(0, 400))?.[1];
    const depth = Number(/"depth"\s*:\s*(\d+)/.exec(line.slice(0, 400))?.[1] ?? 10_000);
    if (name === 'deep')
      send(
        `{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"deep answer"}],"structuredContent":{"deep":${deepArray(depth)}}}}`,
      );
    else
      send(
        `{"jsonrpc":"2.0","id":${id},"result":{"content":[{"type":"text","text":"ok, ${line.length} bytes"}]}}`,
      );
  } else send(`{"jsonrpc":"2.0","id":${id},"error":{"code":-32601,"message":"no ${method}"}}`);
});
