import { spawn } from 'node:child_process';
import { serverNodeFlags } from '../server/node-flags.ts';

// `npm run dev`: the embedded backend on BACKEND_PORT, and Vite with hot reload proxying the API
// paths to it. Stopping this script stops both.
const backendPort = process.env.BACKEND_PORT ?? '54321';
const env = { ...process.env, BACKEND_URL: `http://localhost:${backendPort}` };
const backend = spawn('npx', ['tsx', ...serverNodeFlags, 'server/index.ts'], {
  stdio: 'inherit',
  env: { ...env, PORT: backendPort },
});
const vite = spawn('npx', ['vite'], { stdio: 'inherit', env });

const stop = () => {
  backend.kill('SIGTERM');
  vite.kill('SIGTERM');
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
backend.on('exit', (code) => {
  vite.kill('SIGTERM');
  process.exitCode = code ?? 0;
});
vite.on('exit', () => backend.kill('SIGTERM'));
