import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** What the test SMTP server answers to the next messages: accept, or an SMTP error. */
export type SmtpAnswer = 'accept' | { code: number; message: string };

export interface TestSmtpServer {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  url: string;
  /** Every message accepted so far, parsed with mailparser, with its envelope. */
  received: { envelope: { from: string; to: string[] }; mail: ParsedMail }[];
  /** Messages refused so far. */
  refused: number;
  answer: SmtpAnswer;
  close(): Promise<void>;
}

/**
 * A real SMTP server on 127.0.0.1 (nodemailer's `smtp-server`), plain text, that parses what it
 * receives. `answer` makes it refuse messages, as a server that is down or rejects a recipient
 * would. Without `users` anyone may send; with them, only a client that logs in as one of them
 * (AUTH PLAIN or LOGIN, allowed here without TLS), and a wrong password gets `535`.
 * `onReceived` sees each accepted message before the sender is told it was accepted, as
 * `received` has it by then.
 */
export async function startSmtpServer(
  options: {
    users?: Record<string, string>;
    onReceived?: (message: TestSmtpServer['received'][number]) => void;
  } = {},
): Promise<TestSmtpServer> {
  const users = options.users;
  const state: TestSmtpServer = {
    url: '',
    received: [],
    refused: 0,
    answer: 'accept',
    close: async () => undefined,
  };
  const server = new SMTPServer({
    ...(users
      ? {
          authMethods: ['PLAIN', 'LOGIN'],
          allowInsecureAuth: true,
          disabledCommands: ['STARTTLS'],
          onAuth(auth, _session, callback) {
            if (auth.username !== undefined && users[auth.username] === auth.password) {
              callback(null, { user: auth.username });
            } else {
              callback(
                Object.assign(new Error('Authentication credentials invalid'), {
                  responseCode: 535,
                }),
              );
            }
          },
        }
      : { authOptional: true, disabledCommands: ['STARTTLS', 'AUTH'] }),
    logger: false,
    onData(stream, session, callback) {
      const answer = state.answer;
      simpleParser(stream).then(
        (mail) => {
          if (answer !== 'accept') {
            state.refused += 1;
            const error = Object.assign(new Error(answer.message), { responseCode: answer.code });
            callback(error);
            return;
          }
          const message = {
            envelope: {
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address),
            },
            mail,
          };
          try {
            options.onReceived?.(message);
          } catch (error) {
            callback(error as Error); // not recorded: the sender is told so
            return;
          }
          state.received.push(message);
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  state.url = `smtp://127.0.0.1:${port}`;
  state.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return state;
}
