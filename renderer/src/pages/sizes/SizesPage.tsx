export function SizesPage() {
  return (
    <div className="page-head">
      <h1>SizesPage</h1>
    </div>
  );
}
