import { createReadStream } from 'node:fs';
import { copyFile, mkdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';

/**
 * Where verified uploads live, by content-addressed name (`<sha256>.<ext>`). The disk store below is
 * the default; object storage can implement the same four calls (docs/design.md "Scale path").
 */
export interface FileStore {
  /** Takes the verified file at `tempPath` (on this machine) and stores it as `name`; an existing name is kept. */
  put(tempPath: string, name: string): Promise<void>;
  /** Size of a stored file, or undefined when there is none. */
  size(name: string): Promise<number | undefined>;
  /** The bytes of a stored file, or of the inclusive range `start`-`end`. */
  read(name: string, range?: { start: number; end: number }): Readable;
  /** Deletes a stored file (a deleted account's proof); a missing one is no error. */
  remove(name: string): Promise<void>;
}

/** Files under `dir` (created on first use). Callers pass only names they built from a hash. */
export function diskFileStore(dir: string): FileStore {
  return {
    async put(tempPath, name) {
      await mkdir(dir, { recursive: true });
      const target = join(dir, name);
      try {
        await rename(tempPath, target);
      } catch (error) {
        // Another file system (a temp folder elsewhere): copy, then drop the temporary file.
        if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
        await copyFile(tempPath, target);
        await rm(tempPath, { force: true });
      }
    },
    async size(name) {
      try {
        const info = await stat(join(dir, name));
        return info.isFile() ? info.size : undefined;
      } catch {
        return undefined;
      }
    },
    read(name, range) {
      return createReadStream(join(dir, name), range);
    },
    async remove(name) {
      await rm(join(dir, name), { force: true });
    },
  };
}
