import type { ResolvedOptions, SendReport } from './options.js';
import type { Payload } from './types.js';

/**
 * POSTs one batch. Resolves — never rejects — to what happened: any 2xx is success; anything
 * else (4xx, 5xx, network error, timeout) means the batch is gone for good, exactly as every
 * MCPulse SDK behaves. The response body is never read: a receiver that answers slowly or with
 * megabytes must not cost the producer anything.
 */
export async function postBatch(batch: Payload[], options: ResolvedOptions): Promise<SendReport> {
  let calls = 0;
  for (const p of batch) if (p.type === 'call') calls++;
  try {
    const res = await options.fetch(`${options.endpoint}/v1/ingest`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${options.key}`,
        'user-agent': options.userAgent,
      },
      body: JSON.stringify({ batch }),
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    // Release the connection without reading what the server said.
    await res.body?.cancel().catch(() => {});
    return {
      payloads: batch.length,
      calls,
      status: res.status,
      ok: res.status >= 200 && res.status < 300,
    };
  } catch {
    return { payloads: batch.length, calls, status: 'error', ok: false };
  }
}
