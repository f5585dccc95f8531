/** A spinner with a visible text, e.g. Loading... while the session resolves (spec §2). */
export function Spinner({
  label = 'Loading...',
  fullScreen = false,
}: {
  label?: string;
  fullScreen?: boolean;
}) {
  return (
    <div
      role="status"
      className={`flex items-center justify-center gap-3 text-gray-600 ${fullScreen ? 'min-h-screen' : 'py-12'}`}
    >
      <span
        aria-hidden="true"
        className="h-6 w-6 animate-spin rounded-full border-2 border-primary-600 border-t-transparent"
      />
      <span className="text-sm">{label}</span>
    </div>
  );
}
