// Placeholder: replaced by the Electron shell in this same session.
export {};
