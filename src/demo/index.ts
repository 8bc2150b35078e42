/** The demo: a real MCP server, instrumented by our producer, driven by scripted clients. */
export { runDemo, DEMO_KEY, type DemoOptions, type DemoResult } from './run.js';
export {
  DEMO_PROCESSES,
  type DemoProcess,
  type DemoStep,
  type DemoClient,
  type Expect,
} from './scenarios.js';
export { createDemoServer, DEMO_TOOLS, type DemoServerOptions } from './server.js';
export { runProxiedDemo, PROXIED_DEMO_KEY } from './proxied.js';
