// The renderer needs nothing from Node or Electron: it talks to the local server over
// same-origin HTTP and SSE, exactly as it does in a browser tab. The preload stays empty on
// purpose so a compromised page has no bridge to climb.
export {};
