import { createServer, connect, type AddressInfo, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase, type TestDatabase } from "../support/database.js";
import { startServerProcess, type ServerProcess } from "../support/server-process.js";

/**
 * Start-up of the BUILT server against a PostgreSQL that is not ready yet (PostgreSQL only: SQLite is a
 * file): the first connection is retried with backoff, and an unreachable server is named in a clear error.
 */

/** A free loopback port: listened on, then released. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** `url` with its host and port replaced: the same database, reached through 127.0.0.1:`port`. */
function through(url: string, port: number): string {
  const moved = new URL(url);
  moved.hostname = "127.0.0.1";
  moved.port = String(port);
  return moved.toString();
}

/** A FATAL ErrorResponse of the PostgreSQL protocol with SQLSTATE 57P03, as a server that is starting up sends. */
function startingUp(): Buffer {
  const fields = Buffer.from("SFATAL\0VFATAL\0C57P03\0Mthe database system is starting up\0\0");
  const length = Buffer.alloc(4);
  length.writeInt32BE(fields.length + 4);
  return Buffer.concat([Buffer.from("E"), length, fields]);
}

describe("PostgreSQL not reachable at start-up", () => {
  let database: TestDatabase;
  let proxy: Server | undefined;
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    database = await freshDatabase();
  });
  afterAll(async () => {
    for (const server of servers) await server.dispose();
    proxy?.close();
    await database?.drop();
  });

  it("waits for a database that is still starting up, logging each retry, then starts", async () => {
    const port = await freePort();
    const upstream = new URL(database.url!);
    // PostgreSQL's own answer while it starts (SQLSTATE 57P03) to the first two connections, then the database.
    let refusals = 2;
    proxy = createServer((client) => {
      if (refusals-- > 0) return client.end(startingUp());
      const server = connect(Number(upstream.port), upstream.hostname);
      client.pipe(server).pipe(client);
      for (const end of [client, server]) end.on("error", () => (client.destroy(), server.destroy()));
    });
    await new Promise<void>((resolve) => proxy!.listen(port, "127.0.0.1", resolve));

    const server = await startServerProcess({ database, env: { DATABASE_URL: through(database.url!, port) } });
    servers.push(server);
    const retries = server.logLines().filter((line) => line.msg === "the database is not reachable yet; retrying");
    expect(retries).toMatchObject([
      { attempt: 1, reason: "57P03", delayMs: 250 },
      { attempt: 2, reason: "57P03", delayMs: 500 },
    ]);
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
  });

  it("names the unreachable server (not the URL's password) once DATABASE_CONNECT_TIMEOUT_MS has passed", async () => {
    const port = await freePort();
    const url = through(database.url!.replace("postgresql://", "postgresql://gateway:hunter2-secret@"), port);
    const started = Date.now();
    const refused = startServerProcess({ database, env: { DATABASE_URL: url, DATABASE_CONNECT_TIMEOUT_MS: "1000" } });
    await expect(refused).rejects.toThrow(
      new RegExp(
        `exited \\(code 1[\\s\\S]*PostgreSQL at 127\\.0\\.0\\.1:${port}/\\S+ did not accept a connection within 1 s \\(ECONNREFUSED\\)`,
      ),
    );
    expect(Date.now() - started).toBeLessThan(15_000);
    await expect(refused).rejects.not.toThrow(/hunter2-secret/);
    await expect(refused).rejects.not.toThrow(/\bat \S+\.js:\d+/);
  });
});
