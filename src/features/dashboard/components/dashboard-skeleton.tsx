/** Placeholder blocks in the dashboard's shape while its figures load (spec §2). */
export function DashboardSkeleton() {
  const block = 'animate-pulse rounded-lg bg-gray-200';
  return (
    <div role="status" aria-label="Loading dashboard" aria-live="polite" className="space-y-8">
      <span className="sr-only">Loading...</span>
      <div className={`h-8 w-64 ${block}`} />
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
        {Array.from({ length: 4 }, (_, index) => (
          <div key={index} className={`h-24 ${block}`} />
        ))}
      </div>
      <div className="grid grid-cols-2 gap-4 sm:grid-cols-3 lg:grid-cols-5">
        {Array.from({ length: 9 }, (_, index) => (
          <div key={index} className={`h-20 ${block}`} />
        ))}
      </div>
      <div className="grid gap-6 lg:grid-cols-2">
        <div className={`h-64 ${block}`} />
        <div className={`h-64 ${block}`} />
      </div>
    </div>
  );
}
