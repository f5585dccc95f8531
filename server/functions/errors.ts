import type { ErrorFormat } from '../http/api-error.ts';
import { ApiError } from '../http/api-error.ts';

/** An answer of the functions gateway itself, with the `{code, message}` body Supabase's sends. */
export class GatewayError extends ApiError {
  constructor(
    readonly status: number,
    readonly code: string | number,
    message: string,
  ) {
    super(message);
  }

  toResponse(): Response {
    return Response.json({ code: this.code, message: this.message }, { status: this.status });
  }
}

export const gatewayErrors = {
  notFound: () => new GatewayError(404, 'NOT_FOUND', 'Requested function was not found'),
  methodNotAllowed: (method: string) =>
    new GatewayError(405, 'METHOD_NOT_ALLOWED', `Method ${method} is not allowed`),
  unauthorized: (message: string) => new GatewayError(401, 401, message),
  tooLarge: () => new GatewayError(413, 'PAYLOAD_TOO_LARGE', 'Request body is larger than 10 MiB'),
  unreadableBody: () => new GatewayError(400, 'BAD_REQUEST', 'Request body could not be read'),
  bootFailed: () =>
    new GatewayError(503, 'BOOT_ERROR', 'Worker failed to boot (please check logs)'),
  timedOut: () =>
    new GatewayError(
      546,
      'WORKER_LIMIT',
      'Worker failed to respond due to a resource limit (please check logs)',
    ),
  failed: () =>
    new GatewayError(500, 'WORKER_ERROR', 'Function exited due to an error (please check logs)'),
};

/** The gateway's answer to its own bugs (a function's bugs are `failed`). */
export const functionsErrors: ErrorFormat = {
  internal: () => new GatewayError(500, 'unexpected_failure', 'Internal server error'),
};
