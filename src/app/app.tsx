/** The application root: providers and routes. */
export function App() {
  return <main className="p-6">Steward</main>;
}
