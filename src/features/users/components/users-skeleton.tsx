import { Card } from '../../../components/ui/card.tsx';

/** Placeholder shapes while members and invitations load (spec §2: a loading skeleton). */
export function UsersSkeleton() {
  return (
    <div role="status" aria-label="Loading users" className="animate-pulse space-y-6">
      <div className="h-8 w-56 rounded bg-gray-200" />
      <div className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        {[0, 1, 2, 3].map((key) => (
          <div key={key} className="h-24 rounded-lg bg-gray-200" />
        ))}
      </div>
      <Card className="space-y-3">
        {[0, 1, 2, 3, 4].map((key) => (
          <div key={key} className="h-10 rounded bg-gray-100" />
        ))}
      </Card>
    </div>
  );
}
