import { Hono } from 'hono';
import type { AppContext } from '../context.ts';

export async function createFunctionsApp(_ctx: AppContext): Promise<Hono> {
  return new Hono();
}
