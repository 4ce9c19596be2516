// GET (or POST) /gateway/reports/{line}/{token}: where a line's HTTP gateway (Kannel's dlr-url)
// reports its messages. Not of the spec: the address is made by the upstream carrier for each
// message it hands over (http-gateway.ts reportUrl), and the token in it, made from the line's
// key, is its only credential (a gateway sends no API key). A report of a message the line is not
// waiting on is answered 200 and changes nothing, so a gateway does not retry it forever.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Core } from '../../core';
import { sendError, sendOk } from '../envelope';
import { ApiCode } from '../../../../shared/status';

export async function gatewayReportRoutes(app: FastifyInstance, { core }: { core: Core }) {
  const report = async (
    request: FastifyRequest<{ Params: { line: string; token: string }; Querystring: Record<string, string> }>,
    reply: FastifyReply,
  ) => {
    const lineId = Number(request.params.line);
    if (!Number.isSafeInteger(lineId)) return sendError(reply, ApiCode.NotFound);
    const query = Object.fromEntries(Object.entries(request.query ?? {}).map(([k, v]) => [k, String(v)]));
    const outcome = core.gateways.reported(lineId, request.params.token, query);
    if (outcome === 'refused') return sendError(reply, ApiCode.InvalidApiKey);
    return sendOk(reply, { applied: outcome === 'applied' });
  };
  app.get('/gateway/reports/:line/:token', report);
  app.post('/gateway/reports/:line/:token', report);
}
