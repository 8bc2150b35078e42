/**
 * "No SDK yet?": copy-paste client config that puts the CLI's `proxy` in front of an
 * existing server command, for Claude Desktop, Cursor, VS Code and Claude Code.
 */
import { useState } from 'react';
import { CopyButton } from '../../components/CopyButton';
import { Panel } from '../../components/Panel';
import { ProxyContentNote } from './ProxyContentNote';
import { proxySnippets } from './proxy-snippets';
import { FALLBACK_CLI, useCli } from '../../app/cli';
import { useAppData } from '../../app/status';

export function ProxySetup({ endpoint, dbPath }: { endpoint: string; dbPath?: string }) {
  const [command, setCommand] = useState('node /path/to/your-server.js');
  const { status } = useAppData();
  const cli = useCli();
  // Full paths: the client starts the proxy from its own folder, not from this checkout.
  const snippets = proxySnippets(command, endpoint, status?.cli ?? FALLBACK_CLI);
  const [tab, setTab] = useState(snippets[0]!.id);
  const shown = snippets.find((s) => s.id === tab) ?? snippets[0]!;
  return (
    <Panel title="No SDK? Put the proxy in front of your server" flush>
      <div className="guide" data-testid="proxy-setup">
        <p className="muted small">
          <code>{cli('proxy')}</code> starts your server, relays every byte between it and the
          client unchanged, and records what an SDK would: the tool list, every call, its outcome,
          size and argument hash. Type the command your client runs today:
        </p>
        <label className="small">
          Server command{' '}
          <input
            className="input mono"
            value={command}
            onChange={(e) => setCommand(e.target.value)}
            aria-label="Server command"
            spellCheck={false}
            size={40}
          />
        </label>
      </div>
      <div className="tabs" role="tablist" aria-label="MCP client">
        {snippets.map((s) => (
          <button
            key={s.id}
            role="tab"
            aria-selected={s.id === shown.id}
            className={s.id === shown.id ? 'tab active' : 'tab'}
            onClick={() => setTab(s.id)}
          >
            {s.label}
          </button>
        ))}
      </div>
      <div className="guide" role="tabpanel" aria-label={shown.label}>
        <div className="snippet">
          <div className="snippet-head">
            <span>{shown.where}</span>
            <CopyButton text={shown.text} />
          </div>
          <pre data-testid="proxy-snippet">{shown.text}</pre>
        </div>
        <p className="muted small">
          The command names this install&apos;s CLI by its full path, so the client can start it
          from any folder. A proxy sees only the wire: a handler that threw and one that returned an
          error both look like <code>tool_error</code>, and bad arguments are <code>bad_args</code>{' '}
          only when the server answers JSON-RPC -32602.
        </p>
        <ProxyContentNote dbPath={dbPath} />
      </div>
    </Panel>
  );
}
