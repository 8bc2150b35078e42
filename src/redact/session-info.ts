/** The session's `initialize` facts, redacted: the proxy before posting, the server before storing. */
import type { ProxySessionInfo } from '../shared/proxy-content.js';
import type { Redactor } from './engine.js';

/** `info` with secrets in names, versions, capabilities and instructions replaced. */
export async function redactSessionInfo(
  info: ProxySessionInfo,
  redactor: Redactor,
): Promise<ProxySessionInfo> {
  const text = async (s: string | null) =>
    s === null ? null : (await redactor.redactText(s)).text;
  const peer = async <P extends ProxySessionInfo['client']>(p: P): Promise<P> => ({
    ...p,
    name: await text(p.name),
    version: await text(p.version),
    capabilities: (await redactor.redactValue(p.capabilities)).value,
  });
  return {
    ...info,
    client: await peer(info.client),
    server: { ...(await peer(info.server)), instructions: await text(info.server.instructions) },
  };
}
