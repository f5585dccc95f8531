import { ButtonLink } from './ui/button-link.tsx';

/**
 * An unknown key on a detail route: the specification's Category Not Found / Department Not
 * Found, with Return to Dashboard.
 */
export function NotFoundPanel({ title, message }: { title: string; message: string }) {
  return (
    <div className="mx-auto max-w-md py-16 text-center">
      <h1 className="text-2xl font-semibold text-gray-900">{title}</h1>
      <p className="mt-2 text-gray-600">{message}</p>
      <ButtonLink to="/" className="mt-6">
        Return to Dashboard
      </ButtonLink>
    </div>
  );
}
