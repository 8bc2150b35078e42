/**
 * The layer order is enforced, not just written down: ESLint (its Node API, the repository's own
 * eslint.config.js) fails a file that imports against the arrows. Each case lints a small file
 * placed in a layer's folder (virtually: `lintText` with that path, so nothing lands in the tree).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const eslint = new ESLint({ cwd: root });

/** The layer messages ESLint reports for `code` placed at `path`. */
async function layerErrors(path: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, path) });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports')
    .map((m) => m.message);
}

describe('the layer order (eslint.config.js LAYERS)', () => {
  it('fails the renderer importing the store', async () => {
    const errors = await layerErrors(
      'renderer/src/pages/layer-probe.ts',
      "import { openStore } from '../../../src/store/index';\nexport const probe = openStore;\n",
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/renderer may import only src\/shared/);
  });

  it('fails the store importing ingest', async () => {
    const errors = await layerErrors(
      'src/store/layer-probe.ts',
      "import { LiveBus } from '../ingest/bus.js';\nexport const probe = LiveBus;\n",
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/src\/store may import only/);
  });

  it('fails a nested store file importing ingest, and the store importing the server', async () => {
    const errors = await layerErrors(
      'src/store/metrics/queries/layer-probe.ts',
      "import type { LiveEvent } from '../../../ingest/bus.js';\n" +
        "import { startServer } from '../../../server/index.js';\n" +
        'export type Probe = LiveEvent;\nexport const probe = startServer;\n',
    );
    expect(errors).toHaveLength(2);
  });

  it('fails a metrics query importing the write side, and still checks its layer', async () => {
    const errors = await layerErrors(
      'src/store/metrics/queries/layer-probe.ts',
      "import { createMetricsMaintainer } from '../maintain.js';\n" +
        "import { createDerivedQueue } from '../../derived-queue.js';\n" +
        "import { LiveBus } from '../../../ingest/bus.js';\n" +
        'export const probe = [createMetricsMaintainer, createDerivedQueue, LiveBus];\n',
    );
    expect(errors).toHaveLength(3);
    expect(errors.filter((e) => /Metrics queries only read/.test(e))).toHaveLength(2);
    expect(errors.filter((e) => /src\/store may import only/.test(e))).toHaveLength(1);
    // The read door's own file may use what it needs from the store; the rule is for queries.
    const clean = await layerErrors(
      'src/store/metrics/queries/layer-probe.ts',
      "import { statementCache } from '../../statement-cache.js';\nexport const probe = statementCache;\n",
    );
    expect(clean).toEqual([]);
  });

  it('fails Electron importing the CLI', async () => {
    const errors = await layerErrors(
      'src/electron/layer-probe.ts',
      "import { main } from '../cli/main.js';\nexport const probe = main;\n",
    );
    expect(errors).toHaveLength(1);
  });

  it('fails the proxy importing the CLI (only the CLI starts it)', async () => {
    const errors = await layerErrors(
      'src/proxy/layer-probe.ts',
      "import { findOrStartDashboard } from '../cli/commands/find-dashboard.js';\nexport const probe = findOrStartDashboard;\n",
    );
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/src\/proxy may import only/);
  });

  it('fails redaction importing anything but the contract; lets the proxy and ingest use it', async () => {
    const errors = await layerErrors(
      'src/redact/layer-probe.ts',
      "import { openStore } from '../store/index.js';\nimport { TrafficObserver } from '../proxy/index.js';\n" +
        'export const probe = [openStore, TrafficObserver];\n',
    );
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/src\/redact may import only src\/shared/);
    for (const layer of ['proxy', 'ingest'])
      expect(
        await layerErrors(
          `src/${layer}/layer-probe.ts`,
          "import { Redactor } from '../redact/index.js';\nexport const probe = Redactor;\n",
        ),
      ).toEqual([]);
  });

  it('lets arrows that point down through, and the renderer read src/api types only', async () => {
    expect(
      await layerErrors(
        'src/ingest/layer-probe.ts',
        "import type { Store } from '../store/index.js';\nimport { OUTCOMES } from '../shared/outcomes.js';\n" +
          'export type Probe = Store;\nexport const probe = OUTCOMES;\n',
      ),
    ).toEqual([]);
    expect(
      await layerErrors(
        'renderer/src/api/layer-probe.ts',
        "import type { Api } from '../../../src/api/handlers';\nexport type Probe = Api['summary'];\n",
      ),
    ).toEqual([]);
    expect(
      await layerErrors(
        'renderer/src/api/layer-probe.ts',
        "import { handlers } from '../../../src/api/handlers';\nexport const probe = handlers;\n",
      ),
    ).toHaveLength(1);
  });

  it('builds no preload and loads none (electron-vite config, main process and README agree)', () => {
    const main = readFileSync(join(root, 'src/electron/main.ts'), 'utf8');
    const config = readFileSync(join(root, 'electron.vite.config.ts'), 'utf8');
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    expect(main).not.toMatch(/^\s*preload\s*:/m);
    expect(config).not.toMatch(/^\s*preload\s*:/m);
    expect(readme).toMatch(/no preload/);
  });
});
