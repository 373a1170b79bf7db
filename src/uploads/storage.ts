import { randomUUID } from "node:crypto";
import { mkdir, open, readFile, rename, rm, stat } from "node:fs/promises";
import { dirname, join } from "node:path";

/** Where uploaded files are kept: each key names the whole bytes of one file, or nothing. */
export interface UploadStorage {
  /** Stores the bytes under the key: once it resolves they are there whole, and before, nothing is. */
  put(key: string, bytes: Buffer): Promise<void>;
  /** Whether bytes are stored under the key. */
  has(key: string): Promise<boolean>;
  /** The bytes stored under the key. */
  get(key: string): Promise<Buffer>;
  /** Removes what the key holds, if anything. */
  remove(key: string): Promise<void>;
}

/** Path segments of letters, digits and dashes: a key never climbs out of the root, nor names a temporary file. */
const KEY = /^[A-Za-z0-9-]+(?:\/[A-Za-z0-9-]+)*$/;

/**
 * Files under a directory (`DATA_DIR/uploads`), readable by the service's user only. A file is written under a
 * temporary name, flushed, then renamed to its key: a crash mid-write leaves no file under the key.
 */
export class FileUploadStorage implements UploadStorage {
  constructor(private readonly root: string) {}

  async put(key: string, bytes: Buffer): Promise<void> {
    const path = this.pathOf(key);
    const directory = dirname(path);
    await mkdir(directory, { recursive: true, mode: 0o700 });
    const temporary = `${path}.${randomUUID()}.partial`;
    try {
      const file = await open(temporary, "wx", 0o600);
      try {
        await file.writeFile(bytes);
        await file.sync();
      } finally {
        await file.close();
      }
      await rename(temporary, path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    // The rename itself survives a power loss once the directory is flushed.
    const handle = await open(directory, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  get(key: string): Promise<Buffer> {
    return readFile(this.pathOf(key));
  }

  async has(key: string): Promise<boolean> {
    try {
      return (await stat(this.pathOf(key))).isFile();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
      throw error;
    }
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  private pathOf(key: string): string {
    if (!KEY.test(key)) throw new Error(`not an upload storage key: ${JSON.stringify(key)}`);
    return join(this.root, key);
  }
}
