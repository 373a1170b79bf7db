import type { Database, Db } from "./client.js";
import type { Reads, Writes } from "./statements.js";

/** The database's ways in that a module's repository holds: the ORM and the prepared statements. */
export type DataHandles = Pick<Database, "db" | "reads" | "writes">;

/**
 * What each module's repository is built on: the composition root makes one per service from the handles, and the
 * service reaches its data only through it. Methods that run inside a transaction take its handle first (the
 * repository's `transaction` hands it to the callback), so other modules' writes can join the same transaction.
 */
export abstract class Repository {
  protected readonly db: Db;
  protected readonly reads: Reads;
  protected readonly writes: Writes;

  constructor({ db, reads, writes }: DataHandles) {
    this.db = db;
    this.reads = reads;
    this.writes = writes;
  }
}
