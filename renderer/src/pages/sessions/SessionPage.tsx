export function SessionPage() {
  return (
    <div className="page-head">
      <h1>SessionPage</h1>
    </div>
  );
}
