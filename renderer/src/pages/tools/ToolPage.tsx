export function ToolPage() {
  return (
    <div className="page-head">
      <h1>ToolPage</h1>
    </div>
  );
}
