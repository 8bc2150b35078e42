export default function PlaygroundPage() {
  return (
    <div className="page-head">
      <h1>Playground</h1>
    </div>
  );
}
