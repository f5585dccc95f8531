import { Hono } from 'hono';
import type { AppContext } from '../context.ts';

export function createRestApp(_ctx: AppContext): Hono {
  return new Hono();
}
