export function ComparePage() {
  return (
    <div className="page-head">
      <h1>ComparePage</h1>
    </div>
  );
}
