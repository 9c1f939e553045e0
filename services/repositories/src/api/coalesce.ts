import { Transform, type TransformCallback } from "node:stream";

/** The bus's stream chunk size (moleculer's transit.maxChunkSize). */
const CHUNK_BYTES = 256 * 1024;
/** How long a partial chunk may wait for more before it goes out (git's progress lines, small answers). */
const LINGER_MS = 2;

/**
 * Gathers git's output (pipe reads of up to 64 KiB) into chunks of up to 256 KiB before they cross
 * the bus: each chunk is one NATS message with its own head, so fewer, larger ones cost less CPU
 * on both ends. What waits is sent after LINGER_MS without more, and at the end.
 */
export class Coalesce extends Transform {
  private parts: Buffer[] = [];
  private size = 0;
  private timer: NodeJS.Timeout | undefined;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.parts.push(chunk);
    this.size += chunk.length;
    if (this.size >= CHUNK_BYTES) this.release();
    else this.timer ??= setTimeout(() => this.release(), LINGER_MS);
    done();
  }

  override _flush(done: TransformCallback): void {
    this.release();
    done();
  }

  override _destroy(err: Error | null, done: (error?: Error | null) => void): void {
    clearTimeout(this.timer);
    done(err);
  }

  private release(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.size) return;
    this.push(this.parts.length === 1 ? this.parts[0] : Buffer.concat(this.parts, this.size));
    this.parts = [];
    this.size = 0;
  }
}
