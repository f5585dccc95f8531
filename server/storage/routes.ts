import { Hono } from 'hono';
import type { AppContext } from '../context.ts';

export function createStorageApp(_ctx: AppContext): Hono {
  return new Hono();
}
