import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One call to the mock token endpoint, as the provider received it. */
export interface TokenCall {
  method: string;
  contentType: string | undefined;
  accept: string | undefined;
  /** The raw body, and the same parsed as a form. */
  raw: string;
  form: Record<string, string>;
}

/** What the token endpoint answers; a function decides per call. */
export interface TokenAnswer {
  status?: number;
  /** Reason phrase of the status line (the function reports it as the status text). */
  statusText?: string;
  body?: unknown;
  /** Milliseconds to wait before answering (to make concurrent requests overlap). */
  delayMs?: number;
}

/**
 * A tiny OAuth authorisation server for tests: `POST /token` records every call and answers
 * what `answer` returns (by default a new access token, a new refresh token and one hour). A
 * second one serves as a host nothing may be sent to: `requests` shows whether anything was.
 * Real HTTP over loopback, so the function's requests are exactly what a provider would see.
 */
export class MockProvider {
  readonly calls: TokenCall[] = [];
  /** Every request that reached the server at all (`METHOD /path?query`), token calls or not. */
  readonly requests: string[] = [];
  answer: (call: TokenCall, index: number) => TokenAnswer = defaultAnswer;
  private server: Server | undefined;
  url = '';

  get tokenUrl(): string {
    return `${this.url}/token`;
  }

  get authorizeUrl(): string {
    return `${this.url}/authorize`;
  }

  /** Token calls with this grant type. */
  grants(grantType: string): TokenCall[] {
    return this.calls.filter((call) => call.form.grant_type === grantType);
  }

  reset(): void {
    this.calls.length = 0;
    this.requests.length = 0;
    this.answer = defaultAnswer;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      this.requests.push(`${req.method} ${req.url}`);
      void readBody(req).then(async (raw) => {
        if (req.method !== 'POST' || req.url !== '/token') {
          res.writeHead(404).end();
          return;
        }
        const call: TokenCall = {
          method: req.method,
          contentType: req.headers['content-type'],
          accept: req.headers.accept,
          raw,
          form: Object.fromEntries(new URLSearchParams(raw)),
        };
        this.calls.push(call);
        const answer = this.answer(call, this.calls.length - 1);
        if (answer.delayMs) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
        res.writeHead(answer.status ?? 200, answer.statusText, {
          'Content-Type': 'application/json',
          'Cache-Control': 'no-store',
        });
        res.end(JSON.stringify(answer.body ?? {}));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => {
      if (!this.server) return resolve();
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }
}

let issued = 0;

/** A token answer with fresh, unique tokens. */
export function tokens(
  overrides: Partial<{ access_token: string; refresh_token: string; expires_in: number }> = {},
): TokenAnswer {
  issued += 1;
  return {
    body: {
      access_token: `access-${issued}-${Math.random().toString(36).slice(2)}`,
      refresh_token: `refresh-${issued}-${Math.random().toString(36).slice(2)}`,
      expires_in: 3600,
      token_type: 'Bearer',
      ...overrides,
    },
  };
}

function defaultAnswer(): TokenAnswer {
  return tokens();
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
