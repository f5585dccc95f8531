import { CheckCircle2, Circle } from 'lucide-react';
import { Link } from 'react-router-dom';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { paths } from '../../../config/paths.ts';
import {
  useOnboardingStatus,
  useUpdateOnboarding,
  type OnboardingStatus,
} from '../api/onboarding.ts';

interface Step {
  done: keyof OnboardingStatus;
  label: string;
  to: string;
  /** Following the link is what ticks it (nothing else shows the review happened). */
  ticksOnOpen?: boolean;
}

const STEPS: Step[] = [
  { done: 'team_invited', label: 'Invite your team', to: paths.users },
  {
    done: 'categories_reviewed',
    label: 'Review categories and access',
    to: paths.categories,
    ticksOnOpen: true,
  },
  { done: 'email_ready', label: 'Set up e-mail', to: paths.settings },
  { done: 'documents_uploaded', label: 'Upload the first documents', to: paths.upload },
];

/**
 * A new organisation's first steps, on the dashboard for admins: each ticks itself when done
 * (from what the organisation has), and the list can be put away.
 */
export function FirstRunChecklist() {
  const status = useOnboardingStatus();
  const update = useUpdateOnboarding();
  // Nothing to show while loading, after a failure (it is a help, not the page), or once put away.
  if (!status.data || status.data.dismissed) return null;
  const done = STEPS.filter((step) => status.data[step.done]).length;
  return (
    <Card as="section" aria-labelledby="first-run-heading">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h2 id="first-run-heading" className="text-lg font-semibold text-gray-900">
            Get started
          </h2>
          <p className="text-sm text-gray-600">
            {done} of {STEPS.length} done
          </p>
        </div>
        <Button
          variant="ghost"
          size="sm"
          busy={update.isPending}
          busyLabel="Hiding..."
          onClick={() => update.mutate('dismissed')}
        >
          Hide this list
        </Button>
      </div>
      <ul aria-label="First steps" className="mt-3 grid gap-2 sm:grid-cols-2">
        {STEPS.map((step) => {
          const finished = status.data[step.done];
          const Icon = finished ? CheckCircle2 : Circle;
          return (
            <li key={step.done} className="flex items-center gap-2 text-sm">
              <Icon
                className={`h-5 w-5 shrink-0 ${finished ? 'text-green-600' : 'text-gray-400'}`}
                aria-hidden="true"
              />
              <Link
                to={step.to}
                onClick={() => {
                  if (step.ticksOnOpen && !finished) update.mutate('categories_reviewed');
                }}
                className={`font-medium hover:underline ${finished ? 'text-gray-500 line-through' : 'text-primary-700'}`}
              >
                {step.label}
              </Link>
              <span className="sr-only">{finished ? '(done)' : '(to do)'}</span>
            </li>
          );
        })}
      </ul>
    </Card>
  );
}
