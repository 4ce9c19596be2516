// The previous provider's official Node client (npm `kavenegar`), unpatched, as the client tests
// drive it. It always dials api.kavenegar.com:80 with absolute-form targets through Node's global
// agent, so the tests install an agent that dials the test server instead (what a hosts-file entry
// and a port forward would do).
import http from 'node:http';
import net from 'node:net';
import { createRequire } from 'node:module';

/** The client's methods the tests call. */
export type KavenegarMethod =
  | 'Send'
  | 'SendArray'
  | 'Status'
  | 'StatusLocalMessageid'
  | 'Cancel'
  | 'AccountInfo'
  | 'VerifyLookup'
  | 'SelectOutbox'
  | 'LatestOutbox'
  | 'CountOutbox';

type Callback = (entries: any, status: number, message: string) => void;

/** The client as its CommonJS module exports it (it ships no types). */
const kavenegar = createRequire(import.meta.url)('kavenegar') as {
  KavenegarApi(options: {
    apikey: string;
  }): Record<KavenegarMethod, (params: Record<string, unknown>, callback: Callback) => void>;
};

/** The client callback's three arguments as one answer. */
export interface Answer {
  entries: any;
  status: number;
  message: string;
}

/** One call of the client. */
export function call(apikey: string, method: KavenegarMethod, params: Record<string, unknown>): Promise<Answer> {
  const api = kavenegar.KavenegarApi({ apikey });
  return new Promise((resolve) =>
    api[method](params, (entries, status, message) => resolve({ entries, status, message })),
  );
}

/**
 * Makes Node's global agent dial the server at `url` for every plain-HTTP request, whatever host it
 * names; returns what puts the previous agent back.
 */
export function dialServer(url: string): () => void {
  const { hostname, port } = new URL(url);
  class ToServer extends http.Agent {
    override createConnection(): net.Socket {
      return net.createConnection({ host: hostname, port: Number(port) });
    }
  }
  const saved = http.globalAgent;
  const agent = new ToServer();
  http.globalAgent = agent;
  return () => {
    http.globalAgent = saved;
    agent.destroy();
  };
}
