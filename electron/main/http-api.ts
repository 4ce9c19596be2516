// The local HTTP API inside the desktop app: the same server `serve` runs (without the web UI),
// on the address from Settings (127.0.0.1:8080 unless changed), restartable when it changes. Its
// unexpected errors go to the logger given (the workspace's log file in the app).
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Core } from '../service/core';
import { buildHttpServer } from '../service/http/server';

export interface HttpApiConfig {
  enabled: boolean;
  host: string;
  port: number;
}

export class HttpApi {
  private server: FastifyInstance | null = null;
  private address: string | null = null;

  constructor(
    private readonly core: Core,
    private readonly log: (line: string) => void,
    private readonly logger?: Logger,
  ) {}

  url(): string | null {
    return this.address;
  }

  async start(config: HttpApiConfig): Promise<void> {
    await this.stop();
    if (!config.enabled) return;
    const server = await buildHttpServer({ core: this.core, logger: this.logger });
    try {
      await server.listen({ host: config.host, port: config.port });
    } catch (error) {
      await server.close();
      // A busy port must not keep the app from opening; Settings shows the API as off.
      this.log(
        `chapar: HTTP API not started on ${config.host}:${config.port}: ${error instanceof Error ? error.message : String(error)}`,
      );
      return;
    }
    const address = server.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const host = config.host.includes(':') ? `[${config.host}]` : config.host;
    this.server = server;
    this.address = `http://${host}:${port}`;
    this.core.setLocalAddress(this.address);
    this.log(`chapar: HTTP API listening on ${this.address}`);
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    this.address = null;
    if (server) await server.close();
  }
}
