import { Link } from 'react-router-dom';

/**
 * An unknown key on a detail route: the specification's Category Not Found / Department Not
 * Found, with Return to Dashboard.
 */
export function NotFoundPanel({ title, message }: { title: string; message: string }) {
  return (
    <div className="mx-auto max-w-md py-16 text-center">
      <h1 className="text-2xl font-semibold text-gray-900">{title}</h1>
      <p className="mt-2 text-gray-600">{message}</p>
      <Link
        to="/"
        className="mt-6 inline-block rounded-md bg-blue-600 px-4 py-2 text-sm font-medium text-white hover:bg-blue-700"
      >
        Return to Dashboard
      </Link>
    </div>
  );
}
