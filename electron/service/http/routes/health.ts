// GET /health (spec 4.5 / 7): a body with the single field `message`, no envelope.
import type { FastifyInstance } from 'fastify';

export const HEALTH_MESSAGE = 'سرویس فعال است';

export async function healthRoutes(app: FastifyInstance) {
  app.get('/health', async () => ({ message: HEALTH_MESSAGE }));
}
