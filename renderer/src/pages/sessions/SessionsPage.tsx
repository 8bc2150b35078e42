export function SessionsPage() {
  return (
    <div className="page-head">
      <h1>SessionsPage</h1>
    </div>
  );
}
