/**
 * The file operations that make the state directory's records durable (create, write, fsync,
 * rename, unlink), as one object: node:fs by default, and a recorder or a failing disk in tests,
 * which is how they prove what is fsync'd, in which order, and that a failure fails closed.
 */
import { closeSync, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from "node:fs";

export interface StateFileOps {
  openSync(path: string, flags: string | number, mode?: number): number;
  writeSync(fd: number, text: string): number;
  fsyncSync(fd: number): void;
  closeSync(fd: number): void;
  renameSync(from: string, to: string): void;
  unlinkSync(path: string): void;
}

export const nodeStateFileOps: StateFileOps = {
  openSync: (path, flags, mode) => openSync(path, flags, mode),
  writeSync: (fd, text) => writeSync(fd, text),
  fsyncSync,
  closeSync,
  renameSync,
  unlinkSync,
};
