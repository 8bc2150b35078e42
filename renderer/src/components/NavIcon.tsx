/** 16px stroke icons for the sidebar, drawn inline so nothing loads from elsewhere. */
const PATHS: Record<string, string> = {
  '/': 'M2 9h3l2-5 3 9 2-4h2',
  '/sessions': 'M2 4h12M2 8h12M2 12h8',
  '/tools':
    'M10 2.5a3 3 0 0 0-3 4L2.5 11a1.4 1.4 0 0 0 2 2L9 8.5a3 3 0 0 0 4-3l-1.8 1.8-1.8-.5-.5-1.8z',
  '/calls': 'M3 3v10h10M6 10V7M9 10V5M12 10V8',
  '/sizes': 'M2 13h12M4 13V9M7 13V5M10 13V7M13 13V3',
  '/ingest': 'M8 2v8M5 7l3 3 3-3M3 13h10',
  '/playground': 'M5 4 2 8l3 4M11 4l3 4-3 4M9 3 7 13',
  '/setup':
    'M8 5.5a2.5 2.5 0 1 0 0 5 2.5 2.5 0 0 0 0-5zM8 1.5v2M8 12.5v2M1.5 8h2M12.5 8h2M3.4 3.4l1.4 1.4M11.2 11.2l1.4 1.4M3.4 12.6l1.4-1.4M11.2 4.8l1.4-1.4',
  '/settings': 'M2 4.5h7M12 4.5h2M2 11.5h2M7 11.5h7M10.5 3v3M5.5 10v3',
};

export function NavIcon({ name }: { name: string }) {
  return (
    <svg className="nav-icon" viewBox="0 0 16 16" width="16" height="16" aria-hidden="true">
      <path d={PATHS[name] ?? ''} />
    </svg>
  );
}
